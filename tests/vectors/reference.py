"""An independent Python reference of libswf's arithmetic, for test vectors.

Written from RFC 8681 and RFC 8682, not from the C sources, so that vectors
generated here check the C library (native and WebAssembly) rather than echo it.
Slow and plain on purpose.
"""

MASK32 = 0xFFFFFFFF
POLY = 0x11D  # x^8 + x^4 + x^3 + x^2 + 1, RFC 8681


class TinyMT32:
    """TinyMT32 (RFC 8682) with the parameter set RFC 8681 fixes."""

    MAT1, MAT2, TMAT = 0x8F7011EE, 0xFC78FF1F, 0x3793FDFF

    def __init__(self, seed: int) -> None:
        st: list[int] = [seed & MASK32, self.MAT1, self.MAT2, self.TMAT]
        for i in range(1, 8):
            prev = st[(i - 1) & 3]
            st[i & 3] ^= (i + 1812433253 * (prev ^ (prev >> 30))) & MASK32
        if (st[0] & 0x7FFFFFFF) == 0 and st[1] == st[2] == st[3] == 0:
            st = [ord("T"), ord("I"), ord("N"), ord("Y")]
        self.st = st
        for _ in range(8):
            self._next_state()

    def _next_state(self) -> None:
        st = self.st
        x = (st[0] & 0x7FFFFFFF) ^ st[1] ^ st[2]
        y = st[3]
        x = (x ^ (x << 1)) & MASK32
        y ^= (y >> 1) ^ x
        st[0], st[1], st[2], st[3] = st[1], st[2], (x ^ (y << 10)) & MASK32, y
        if y & 1:
            st[1] ^= self.MAT1
            st[2] ^= self.MAT2

    def next(self) -> int:
        self._next_state()
        t0 = self.st[3]
        t1 = (self.st[0] + (self.st[2] >> 8)) & MASK32
        t0 ^= t1
        if t1 & 1:
            t0 ^= self.TMAT
        return t0


def gf_mul(a: int, b: int) -> int:
    """Carry-less multiply, reduced modulo POLY."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= POLY
        b >>= 1
    return product


def coefficients(repair_key: int, dt: int, nss: int) -> list[int]:
    """RFC 8681, section 3.6, generate_coding_coefficients() for m = 8."""
    prng = TinyMT32(repair_key)
    coefs = []
    for _ in range(nss):
        if dt == 15 or (prng.next() & 0xF) <= dt:
            c = 0
            while c == 0:
                c = prng.next() & 0xFF
        else:
            c = 0
        coefs.append(c)
    return coefs


def repair_symbol(repair_key: int, dt: int, sources: list[bytes]) -> bytes:
    """The repair symbol over an encoding window of sources in ESI order."""
    out = bytearray(len(sources[0]))
    for c, src in zip(coefficients(repair_key, dt, len(sources)), sources):
        if c:
            row = [gf_mul(c, x) for x in range(256)]
            for i, byte in enumerate(src):
                out[i] ^= row[byte]
    return bytes(out)
