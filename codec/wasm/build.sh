#!/bin/sh
# build.sh - builds libswf to WebAssembly and its TypeScript wrapper into
# build/wasm/ at the repository root:
#   swf.mjs + swf.wasm      the emscripten ES module (web and worker; node
#                           tests pass the wasm bytes in as wasmBinary)
#   index.js, swf.js, *.d.ts the typed wrapper (import index.js)
#
# The library is compiled by codec/CMakeLists.txt itself under emcmake, so the
# WebAssembly build uses the native build's source list and compile options
# (-ffp-contract=off among them) without a copy of either. Idempotent: rerun
# it after any change.
set -eu

wasm_dir=$(cd "$(dirname "$0")" && pwd)
codec_dir=$(dirname "$wasm_dir")
out_dir=$(dirname "$codec_dir")/build/wasm

fail() {
	echo "build.sh: $*" >&2
	exit 1
}

command -v emcc >/dev/null 2>&1 ||
	fail "emcc was not found on PATH; install Emscripten (Debian: apt-get install emscripten) and rerun."
command -v cmake >/dev/null 2>&1 ||
	fail "cmake was not found on PATH; install CMake 3.20 or newer and rerun."
command -v npm >/dev/null 2>&1 ||
	fail "npm was not found on PATH; install Node.js 20 or newer and rerun."

# Debian's emscripten runs its JavaScript optimiser with Debian's acorn, which
# node only finds through NODE_PATH.
if [ -d /usr/share/nodejs ]; then
	export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
fi

# The library, exactly as the native build compiles it, plus -msimd128 (which
# selects src/gf/simd128.c). EMSCRIPTEN_SYSTEM_PROCESSOR keeps emscripten from
# calling itself x86, so x86-only kernel flags are not applied.
emcmake cmake -S "$codec_dir" -B "$out_dir/cmake" \
	-DCMAKE_BUILD_TYPE=Release -DSWF_LIBRARY_ONLY=ON \
	-DCMAKE_C_FLAGS="-msimd128" \
	-DEMSCRIPTEN_SYSTEM_PROCESSOR=wasm32 ||
	fail "configuring libswf with emcmake failed (see above)."
cmake --build "$out_dir/cmake" --target swf --parallel

# Every C function the wrapper calls: the glue (glue.c) and the parts of
# swf.h that take only pointers and 32-bit integers.
exported_functions=_malloc,_free,\
_swf_status_string,_swf_gf_kernel,\
_swfw_repair_id_write,_swfw_repair_id_read,_swfw_coefficients,\
_swfw_encoder_new,_swf_encoder_free,_swf_encoder_add_source,_swfw_encoder_build_repair,\
_swfw_decoder_new,_swf_decoder_free,_swf_decoder_add_source,_swfw_decoder_add_repair,\
_swf_decoder_next_rebuilt,_swfw_decoder_stats,_swfw_row_layout,\
_swfw_channel_config_new,_swfw_channel_config_free,_swf_channel_new,_swf_channel_free,\
_swfw_channel_lost,_swfw_channel_lost_during,_swfw_channel_measure,\
_swfw_residual_new,_swfw_residual_advance,_swf_residual_free

emcc -O3 -msimd128 -Wall -Wextra -std=c11 \
	-I "$codec_dir/include" \
	"$wasm_dir/glue.c" "$out_dir/cmake/libswf.a" \
	-sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=createSwfModule \
	-sENVIRONMENT=web,worker \
	-sALLOW_MEMORY_GROWTH -sFILESYSTEM=0 \
	-sEXPORTED_FUNCTIONS="$exported_functions" \
	-sEXPORTED_RUNTIME_METHODS=UTF8ToString \
	-o "$out_dir/swf.mjs"

cd "$wasm_dir"
[ -x node_modules/.bin/tsc ] || npm ci --no-audit --no-fund ||
	fail "npm ci failed in $wasm_dir; TypeScript is needed to compile the wrapper."
node_modules/.bin/tsc -p tsconfig.json
echo "build.sh: built $out_dir/swf.mjs, swf.wasm and the wrapper index.js."
