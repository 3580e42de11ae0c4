// A 256-bit board (4 words) for grids up to 16x16: cell (r, c) is bit r*16 + c.
#pragma once

#include <array>

#include "core/bitboard.h"

namespace pyaz {

class Bitboard256 {
public:
    static constexpr int kStride = 16;

    bool test(int index) const { return (words_[index >> 6] >> (index & 63)) & 1; }
    void set(int index) { words_[index >> 6] |= bit(index & 63); }
    Bitboard word(int w) const { return words_[w]; }
    Bitboard& word(int w) { return words_[w]; }

    int count() const {
        return popcount(words_[0]) + popcount(words_[1]) + popcount(words_[2]) + popcount(words_[3]);
    }

    // Index of the n-th (0-based) set bit; requires n < count().
    int nth_set(int n) const {
        for (int w = 0;; ++w) {
            const int in_word = popcount(words_[w]);
            if (n < in_word) return (w << 6) + nth_set_bit(words_[w], n);
            n -= in_word;
        }
    }

    friend Bitboard256 operator|(const Bitboard256& a, const Bitboard256& b) {
        Bitboard256 r;
        for (int w = 0; w < 4; ++w) r.words_[w] = a.words_[w] | b.words_[w];
        return r;
    }
    friend Bitboard256 and_not(const Bitboard256& a, const Bitboard256& b) {
        Bitboard256 r;
        for (int w = 0; w < 4; ++w) r.words_[w] = a.words_[w] & ~b.words_[w];
        return r;
    }

private:
    std::array<Bitboard, 4> words_{};
};

}  // namespace pyaz
