// Digital curling: a 2D stone simulator (DigitalCurling3 "FCV1" motion law by default, the older
// GAT/UEC v2 law as an option), the game rules (removal, free guard zone, scoring, hammer, N ends),
// shot conversion between velocities and target stop positions, and execution noise.
//
// Coordinates are DigitalCurling3's shot frame (metres): the release point (hack) is the origin,
// +y runs down the sheet toward the target house, x = 0 is the centre line. Stone i of an end is
// the i-th stone thrown, so even indices belong to the team throwing first (the one without the
// hammer). See docs/curling.md for the model choices.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.h"

namespace pyaz::curling {

// Geometry: DigitalCurling3's float constants, widened to double.
constexpr double kStoneRadius = 0.14499999582767487;
constexpr double kSheetHalfWidth = 2.375;
constexpr double kHogLineY = 32.003997802734375;
constexpr double kTeeY = 38.404998779296875;
constexpr double kBackLineY = 40.23400115966797;
constexpr double kHouseRadius = 1.8289999961853027;
constexpr double kInHouseDistance = kHouseRadius + kStoneRadius;
constexpr int kStonesPerEnd = 16;
constexpr double kPi = 3.14159265358979323846;

enum class Physics { kFCV1 = 0, kGAT = 1 };
enum class Noise { kNone = 0, kGAT = 1, kDC3 = 2 };

// Spin: +1 counter-clockwise (curls toward -x when travelling +y), -1 clockwise.
struct Shot {
    double vx = 0.0;
    double vy = 0.0;
    int spin = 1;
};

// A shot given by where it would come to rest on an empty sheet (seed 002's action space).
struct Target {
    double x = 0.0;
    double y = kTeeY;
    int spin = 1;
};

struct Body {
    double x = 0.0;
    double y = 0.0;
    double vx = 0.0;
    double vy = 0.0;
    double omega = 0.0;
    bool in_play = false;
};

struct PhysicsParams {
    Physics model = Physics::kFCV1;
    double stone_friction = 0.2;  // Coulomb friction between stones (DC2 used 12.009216)
    double restitution = 1.0;
    double max_step = 0.1;  // longest integration step (s)

    static PhysicsParams fcv1() { return {}; }
    static PhysicsParams gat() { return {Physics::kGAT, 12.009216, 1.0, 0.1}; }
};

// What happened during one simulated shot (for tests and debugging).
struct SimStats {
    int steps = 0;
    int collisions = 0;
    double time = 0.0;
};

// Moves the stones until all rest; removes stones that touch a side line or pass the back line
// while moving (in_play = false). Does not apply the hog-line or FGZ rules.
SimStats simulate(std::array<Body, kStonesPerEnd>& bodies, const PhysicsParams& params);

// Impulse between touching stones a and b (equal mass, disc inertia m r^2 / 2): elastic normal
// part with the given restitution, Coulomb friction on the tangential slip at the contact point.
// Returns false (and changes nothing) when they are not approaching.
bool collide(Body& a, Body& b, const PhysicsParams& params);

// Initial angular velocity of a thrown stone for the model (only its sign steers the curl).
double release_omega(Physics model, int spin);

// Lone stone thrown from the origin with `shot` on an unbounded sheet: its rest point.
Body rest_point(const Shot& shot, const PhysicsParams& params);

// x where a lone stone thrown with `shot` crosses the line y = y_line (NaN if it stops short).
double lateral_at(const Shot& shot, double y_line, const PhysicsParams& params);

// A shot of the given speed whose lone-stone path passes through (x, y) (for hits).
Shot aim_through(double x, double y, double speed, int spin, const PhysicsParams& params);

// Target <-> velocity conversion for a lone stone on an empty, unbounded sheet (exact up to the
// integration and a fine speed table; the motion is rotation invariant).
Shot target_to_shot(const Target& target, Physics model);
Target shot_to_target(const Shot& shot, Physics model);
double max_speed(Physics model);

struct NoiseParams {
    Noise model = Noise::kNone;
    double sigma_x = 0.0725;      // GAT: lateral std of the stop point at the tee (m)
    double sigma_y = 0.29;        // GAT: std along the sheet (m)
    double sigma_speed = 0.0076;  // DC3: speed std (m/s)
    double sigma_angle = 0.0018;  // DC3: angle std (rad)
};

// Standard normal draw (Box-Muller on Rng, so results are the same on every platform).
double normal(Rng& rng);

// Applies execution noise to an intended shot.
Shot perturb(const Shot& shot, const NoiseParams& noise, Physics model, Rng& rng);

struct Rules {
    int num_ends = 8;
    // A game tied after num_ends goes on with extra ends until an end is scored, at most this
    // many (a blank extra end leaves the score tied and play goes on, as in DigitalCurling3);
    // 0 ends every game after num_ends, ties included (seed 002's Table 1 counts a tie as half).
    int extra_ends = 0;
    int fgz_shots = 5;  // free guard zone protects the opponent's guards for this many shots (0 = off)
    PhysicsParams physics{};
};

class GameState {
public:
    explicit GameState(const Rules& rules = Rules{});

    const Rules& rules() const { return rules_; }
    int end() const { return end_; }
    int shot() const { return shot_; }
    int hammer() const { return hammer_; }
    // Team throwing the next stone (0 or 1).
    int to_move() const { return (shot_ % 2 == 0) ? 1 - hammer_ : hammer_; }
    bool is_game_over() const;
    // Whether the current end is an extra end (past num_ends, the game tied).
    bool in_extra_end() const { return end_ >= rules_.num_ends; }
    // Team owning stone index i in the current end.
    int team_of(int index) const { return (index % 2 == 0) ? 1 - hammer_ : hammer_; }

    const std::array<Body, kStonesPerEnd>& stones() const { return stones_; }
    void set_stone(int index, double x, double y, bool in_play);
    void set_shot(int shot) { shot_ = shot; }
    void set_hammer(int team) { hammer_ = team; }
    void set_end(int end) { end_ = end; }

    // Score points per end for team 0 and team 1 (one entry per finished end).
    const std::vector<std::array<int, 2>>& end_scores() const { return end_scores_; }
    std::array<int, 2> total_score() const;

    // End score if the end finished now: positive for the team without hammer ... returned per
    // team as (points team 0, points team 1), at most one of them non-zero.
    std::array<int, 2> house_score() const;

    // Throws the next stone. Returns true if a free-guard-zone foul voided the shot.
    bool apply(const Shot& shot);
    bool apply(const Shot& shot, const NoiseParams& noise, Rng& rng);
    // Throws without finishing the end (shot 16 leaves the stones for inspection): used by search.
    bool apply_no_end(const Shot& shot);
    // Scores the end after its 16th stone and starts the next one.
    void finish_end();

    std::string to_string() const;

private:
    bool throw_stone(const Shot& shot);

    Rules rules_;
    std::array<Body, kStonesPerEnd> stones_{};
    std::vector<std::array<int, 2>> end_scores_;
    int end_ = 0;
    int shot_ = 0;
    int hammer_ = 1;
};

bool in_house(double x, double y);
bool in_free_guard_zone(double x, double y);

}  // namespace pyaz::curling
