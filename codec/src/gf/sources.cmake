# The GF(2^8) kernels. Every file is listed for every target: each one builds
# only where its instruction set exists (x86 or wasm simd128) and is empty
# elsewhere, so the wasm build can use the same list.
set(SWF_GF_SOURCES
  src/gf/dispatch.c
  src/gf/scalar.c
  src/gf/ssse3.c
  src/gf/avx2.c
  src/gf/gfni.c
  src/gf/simd128.c
)
