// Connect Four on a width x height board (columns of height + 1 bits, so width * (height + 1)
// must fit in 64 bits: 7x6, 6x7, 8x7 and smaller). Actions are columns; a disc drops to the
// lowest free cell; four in a row in any direction wins; a full board is a draw.
#pragma once

#include <string>

#include "core/bitboard.h"
#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

class ConnectFour {
public:
    static constexpr int kMinSide = 4;
    static constexpr int kMaxSide = 9;
    static constexpr int kMaxActions = kMaxSide;
    static constexpr int kNumPlanes = 2;
    static constexpr const char* kName = "connect_four";

    explicit ConnectFour(int width = 7, int height = 6);

    int height() const { return height_; }
    int width() const { return width_; }
    int num_actions() const { return width_; }
    int num_planes() const { return kNumPlanes; }

    Status status() const { return status_; }
    int to_move() const { return to_move_; }
    int ply() const { return ply_; }

    int num_legal_actions() const { return is_terminal(status_) ? 0 : popcount(landing_cells()); }
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    Action random_action(Rng& rng) const;
    void apply(Action column);
    void apply_random(Rng& rng) { drop(random_landing(rng)); }

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        for (Bitboard b = landing_cells(); b; b &= b - 1) {
            ConnectFour child = *this;
            child.drop(b & (~b + 1));
            visit(child);
        }
    }

    void encode(float* out) const;
    Cell cell(int row, int col) const;  // row 0 is the top

    std::string to_string() const;
    std::string action_to_string(Action action) const;
    Action parse_action(const std::string& text) const;
    static ConnectFour from_text(const std::string& text);

private:
    int stride() const { return height_ + 1; }
    int bit_index(int row, int col) const { return col * stride() + (height_ - 1 - row); }
    Bitboard bottom_row() const { return bottom_; }
    Bitboard board_cells() const { return cells_; }
    // For every column that is not full, the cell a disc would land on.
    Bitboard landing_cells() const { return (occupied_ + bottom_row()) & board_cells(); }
    Bitboard column_cells(int column) const;
    bool has_four(Bitboard discs) const;
    void drop(Bitboard landing);
    Bitboard random_landing(Rng& rng) const {
        const Bitboard landing = landing_cells();
        return bit(nth_set_bit(landing, static_cast<int>(rng.below(popcount(landing)))));
    }
    Bitboard discs_of(int player) const { return player == to_move_ ? own_ : occupied_ ^ own_; }

    Bitboard own_ = 0;       // discs of the side to move
    Bitboard occupied_ = 0;  // discs of both sides
    Bitboard bottom_ = 0;    // the bottom cell of every column
    Bitboard cells_ = 0;     // every cell of the board (not the guard bit above each column)
    std::int16_t ply_ = 0;
    std::int8_t width_ = 7;
    std::int8_t height_ = 6;
    std::int8_t to_move_ = 0;
    Status status_ = Status::kOngoing;
};

}  // namespace pyaz
