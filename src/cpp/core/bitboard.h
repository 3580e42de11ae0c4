// Bit tricks shared by the bitboard games. Portable C++17: compiler builtins where they exist
// (GCC/Clang), no required BMI2.
#pragma once

#include <cstdint>

namespace pyaz {

using Bitboard = std::uint64_t;

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }

// Index of the lowest set bit; b must be non-zero.
inline int lowest_bit(Bitboard b) { return __builtin_ctzll(b); }

// Clears the lowest set bit and returns its index; b must be non-zero.
inline int pop_lowest_bit(Bitboard& b) {
    const int index = lowest_bit(b);
    b &= b - 1;
    return index;
}

// Index of the n-th (0-based) set bit counting from the lowest; requires n < popcount(b).
inline int nth_set_bit(Bitboard b, int n) {
    // Skip whole bytes first, then bits: a handful of steps on average.
    int base = 0;
    for (;;) {
        const int in_low_byte = popcount(b & 0xFFu);
        if (n < in_low_byte) break;
        n -= in_low_byte;
        b >>= 8;
        base += 8;
    }
    for (; n > 0; --n) b &= b - 1;
    return base + lowest_bit(b);
}

inline Bitboard bit(int index) { return Bitboard{1} << index; }

}  // namespace pyaz
