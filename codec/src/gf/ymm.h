/*
 * ymm.h - the 256-bit vector operations region_template.h expects, shared by
 * the kernels that work on ymm registers (avx2.c, gfni.c). Each defines
 * ATTRIBUTES (its target) before including this.
 */
typedef __m256i vec_t;
#define VEC_BYTES 32
#define vec_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define vec_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define vec_xor _mm256_xor_si256
#define vec_and _mm256_and_si256
#define vec_zero _mm256_setzero_si256
