#include "games/curling.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace pyaz::curling {
namespace {

constexpr double kGravity = 9.80665;
constexpr double kGatDeceleration = 12.009216;
constexpr double kGatLateral = 0.066696 * 12.009216;  // DC2: perpendicular push per second
constexpr double kFcv1Omega = 1.5707963705062866;      // DC3 release spin, float(pi/2)
constexpr double kGatOmega = 0.066696;
constexpr double kSpinEpsilon = 1.1920929e-7;  // FLT_EPSILON, as in DC3
constexpr double kContactTolerance = 1e-5;     // a pair this close counts as touching (m)
constexpr double kStopHorizon = 1e-3;          // a stone this close to rest (s) is stopped
constexpr double kStepFraction = 0.2;          // a step loses at most about this share of speed
constexpr double kFar = -2.0;                  // contact_time: the pair cannot touch within the step

// Magnitude of the along-path deceleration at speed v (m/s^2).
double deceleration(Physics model, double v) {
    if (model == Physics::kGAT) return kGatDeceleration;
    return (0.00200985 / (v + 0.06385782) + 0.00626286) * kGravity;
}

// Turning rate of the velocity direction (rad/s), positive = to the left of the motion.
double yaw_rate(Physics model, double v, double omega) {
    if (std::fabs(omega) <= kSpinEpsilon) return 0.0;
    const double sign = omega > 0.0 ? 1.0 : -1.0;
    if (model == Physics::kGAT) return sign * kGatLateral / v;
    return sign * 0.00820 * std::pow(v, -0.8);
}

double speed_of(const Body& b) { return std::hypot(b.vx, b.vy); }

void stop(Body& b) {
    b.vx = 0.0;
    b.vy = 0.0;
    b.omega = 0.0;
}

// Longest step for a moving stone: a fixed share of its remaining time to rest.
double step_limit(Physics model, double v) { return kStepFraction * v / deceleration(model, v); }

// Brings a stone that is within kStopHorizon of rest to rest, sliding it the last bit.
void finish_stop(Body& b, Physics model, double v) {
    const double distance = v * v / (2.0 * deceleration(model, v));
    b.x += b.vx / v * distance;
    b.y += b.vy / v * distance;
    stop(b);
}

// Advances one moving stone by h seconds (midpoint rule on speed, heading and spin).
void advance(Body& b, double h, Physics model) {
    const double v = speed_of(b);
    if (v <= 0.0) return;
    const double v_mid = std::max(0.0, v - 0.5 * h * deceleration(model, v));
    const double v_new = v - h * deceleration(model, std::max(v_mid, 1e-9));
    const double yaw = (v_mid > 0.0 ? yaw_rate(model, v_mid, b.omega) : 0.0) * h;
    const double ex = b.vx / v;
    const double ey = b.vy / v;
    const double c_half = std::cos(0.5 * yaw);
    const double s_half = std::sin(0.5 * yaw);
    b.x += h * v_mid * (ex * c_half - ey * s_half);
    b.y += h * v_mid * (ey * c_half + ex * s_half);
    if (model == Physics::kFCV1 && std::fabs(b.omega) > kSpinEpsilon) {
        const double decay = 0.025 / std::max(v_mid, 0.001) * h;
        b.omega = b.omega > 0.0 ? std::max(0.0, b.omega - decay) : std::min(0.0, b.omega + decay);
    }
    if (v_new <= 0.0) {
        stop(b);
        return;
    }
    const double c = std::cos(yaw);
    const double s = std::sin(yaw);
    b.vx = v_new * (ex * c - ey * s);
    b.vy = v_new * (ey * c + ex * s);
}

// Earliest time in [0, horizon] at which stones a and b, moving straight, touch while approaching;
// -1 if they come near but do not, kFar if they stay apart by more than their closing distance.
double contact_time(const Body& a, const Body& b, double horizon) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double dvx = b.vx - a.vx;
    const double dvy = b.vy - a.vy;
    const double reach = 2.0 * kStoneRadius;
    const double gap = std::sqrt(dx * dx + dy * dy) - reach;
    const double closing = std::sqrt(dvx * dvx + dvy * dvy);
    if (gap > closing * horizon + kContactTolerance) return kFar;
    const double qb = 2.0 * (dx * dvx + dy * dvy);
    if (qb > -1e-11) return -1.0;  // separating, sliding past, or too slow to matter (see collide)
    const double qa = dvx * dvx + dvy * dvy;
    const double qc = dx * dx + dy * dy - reach * reach;
    if (qc <= 0.0) return 0.0;
    const double disc = qb * qb - 4.0 * qa * qc;
    if (disc < 0.0) return -1.0;
    const double t = (-qb - std::sqrt(disc)) / (2.0 * qa);
    return t <= horizon ? std::max(t, 0.0) : -1.0;
}

// Resolves every touching, approaching pair (sequential impulses, a few sweeps for chains).
int resolve_contacts(std::array<Body, kStonesPerEnd>& bodies, const PhysicsParams& params) {
    int count = 0;
    const double touch = 2.0 * kStoneRadius + kContactTolerance;
    for (int sweep = 0; sweep < 16; ++sweep) {
        bool any = false;
        for (int i = 0; i < kStonesPerEnd; ++i) {
            if (!bodies[i].in_play) continue;
            for (int j = i + 1; j < kStonesPerEnd; ++j) {
                if (!bodies[j].in_play) continue;
                const double dx = bodies[j].x - bodies[i].x;
                const double dy = bodies[j].y - bodies[i].y;
                if (dx * dx + dy * dy > touch * touch) continue;
                if (collide(bodies[i], bodies[j], params)) {
                    any = true;
                    ++count;
                }
            }
        }
        if (!any) break;
    }
    return count;
}

// Pushes overlapping stones apart along their centre line (overlaps come only from the small
// difference between the curved paths and the straight lines used to find contact times).
void separate(std::array<Body, kStonesPerEnd>& bodies) {
    const double reach = 2.0 * kStoneRadius;
    for (int i = 0; i < kStonesPerEnd; ++i) {
        if (!bodies[i].in_play) continue;
        for (int j = i + 1; j < kStonesPerEnd; ++j) {
            if (!bodies[j].in_play) continue;
            const double dx = bodies[j].x - bodies[i].x;
            const double dy = bodies[j].y - bodies[i].y;
            const double dist = std::hypot(dx, dy);
            if (dist >= reach || dist <= 0.0) continue;
            const double push = 0.5 * (reach - dist) / dist;
            bodies[i].x -= dx * push;
            bodies[i].y -= dy * push;
            bodies[j].x += dx * push;
            bodies[j].y += dy * push;
        }
    }
}

bool off_sheet_while_moving(const Body& b) {
    return std::fabs(b.x) + kStoneRadius >= kSheetHalfWidth || b.y - kStoneRadius >= kBackLineY;
}

// One step of the whole position: the longest step that keeps every stone's integration accurate
// and ends at the first contact. Returns false once every stone rests.
bool step(std::array<Body, kStonesPerEnd>& bodies, const PhysicsParams& params, bool remove,
          SimStats& stats) {
    double h = params.max_step;
    std::array<int, kStonesPerEnd> active{};
    std::array<bool, kStonesPerEnd> moves{};
    int count = 0;
    bool any_moving = false;
    for (int i = 0; i < kStonesPerEnd; ++i) {
        Body& b = bodies[i];
        if (!b.in_play) continue;
        active[count] = i;
        const double v = speed_of(b);
        if (v > 0.0) {
            const double limit = step_limit(params.model, v);
            if (limit < kStopHorizon * kStepFraction) {
                finish_stop(b, params.model, v);
            } else {
                moves[count] = true;
                any_moving = true;
                h = std::min(h, limit);
            }
        }
        ++count;
    }
    if (!any_moving) return false;
    bool near_contact = false;
    for (int a = 0; a < count; ++a) {
        for (int c = a + 1; c < count; ++c) {
            if (!moves[a] && !moves[c]) continue;
            const double t = contact_time(bodies[active[a]], bodies[active[c]], h);
            if (t == kFar) continue;
            near_contact = true;
            if (t >= 0.0) h = std::min(h, t);
        }
    }
    for (int a = 0; a < count; ++a) {
        if (!moves[a]) continue;
        Body& b = bodies[active[a]];
        advance(b, h, params.model);
        if (remove && off_sheet_while_moving(b)) {
            b.in_play = false;
            stop(b);
        }
    }
    if (near_contact) {
        stats.collisions += resolve_contacts(bodies, params);
        separate(bodies);
    }
    stats.time += h;
    ++stats.steps;
    return true;
}

SimStats run(std::array<Body, kStonesPerEnd>& bodies, const PhysicsParams& params, bool remove) {
    SimStats stats;
    if (remove) {
        for (auto& b : bodies) {
            if (b.in_play && off_sheet_while_moving(b)) b.in_play = false;
        }
    }
    constexpr int kMaxSteps = 1000000;
    while (stats.steps < kMaxSteps && step(bodies, params, remove, stats)) {
    }
    return stats;
}

// Rest distance and drift angle of a lone stone thrown straight (+y) with spin +1, tabulated
// over its release speed; the basis of the target <-> velocity conversion.
struct DrawTable {
    double v_min = 0.0;
    double dv = 0.0;
    std::vector<double> distance;
    std::vector<double> drift;  // atan2(x, y) of the rest point

    explicit DrawTable(Physics model) {
        const int n = 4096;
        v_min = model == Physics::kGAT ? 1.0 : 0.05;
        const double v_max = model == Physics::kGAT ? 45.0 : 4.6;
        dv = (v_max - v_min) / (n - 1);
        const PhysicsParams params = model == Physics::kGAT ? PhysicsParams::gat() : PhysicsParams::fcv1();
        distance.resize(n);
        drift.resize(n);
        for (int i = 0; i < n; ++i) {
            const Body rest = rest_point(Shot{0.0, v_min + dv * i, 1}, params);
            distance[i] = std::hypot(rest.x, rest.y);
            drift[i] = std::atan2(rest.x, rest.y);
        }
    }

    // Interpolated (distance, drift) at speed v.
    std::array<double, 2> at_speed(double v) const {
        const double pos = std::clamp((v - v_min) / dv, 0.0, double(distance.size() - 1));
        const auto i = std::min(static_cast<std::size_t>(pos), distance.size() - 2);
        const double f = pos - double(i);
        return {distance[i] + f * (distance[i + 1] - distance[i]), drift[i] + f * (drift[i + 1] - drift[i])};
    }

    // Release speed whose rest distance is r, and the drift at that speed.
    std::array<double, 2> for_distance(double r) const {
        const auto it = std::lower_bound(distance.begin(), distance.end(), r);
        std::size_t i = it == distance.begin() ? 0 : static_cast<std::size_t>(it - distance.begin()) - 1;
        i = std::min(i, distance.size() - 2);
        const double f = (r - distance[i]) / (distance[i + 1] - distance[i]);
        const double v = v_min + dv * (double(i) + f);
        const double phi = drift[i] + std::clamp(f, 0.0, 1.0) * (drift[i + 1] - drift[i]);
        return {v, phi};
    }
};

const DrawTable& draw_table(Physics model) {
    static const DrawTable fcv1(Physics::kFCV1);
    static const DrawTable gat(Physics::kGAT);
    return model == Physics::kGAT ? gat : fcv1;
}

}  // namespace

bool collide(Body& a, Body& b, const PhysicsParams& params) {
    double nx = b.x - a.x;
    double ny = b.y - a.y;
    const double dist = std::hypot(nx, ny);
    if (dist <= 0.0) return false;
    nx /= dist;
    ny /= dist;
    const double tx = -ny;
    const double ty = nx;
    const double r = kStoneRadius;
    const double rel_x = a.vx - b.vx + r * (a.omega + b.omega) * tx;
    const double rel_y = a.vy - b.vy + r * (a.omega + b.omega) * ty;
    const double vn = rel_x * nx + rel_y * ny;
    if (vn <= 1e-12) return false;
    const double jn = 0.5 * (1.0 + params.restitution) * vn;  // per unit mass
    const double vt = rel_x * tx + rel_y * ty;
    const double jt = std::clamp(vt / 6.0, -params.stone_friction * jn, params.stone_friction * jn);
    a.vx -= jn * nx + jt * tx;
    a.vy -= jn * ny + jt * ty;
    b.vx += jn * nx + jt * tx;
    b.vy += jn * ny + jt * ty;
    const double spin_change = jt * r / (0.5 * r * r);
    a.omega -= spin_change;
    b.omega -= spin_change;
    return true;
}

SimStats simulate(std::array<Body, kStonesPerEnd>& bodies, const PhysicsParams& params) {
    return run(bodies, params, true);
}

double release_omega(Physics model, int spin) {
    const double magnitude = model == Physics::kGAT ? kGatOmega : kFcv1Omega;
    return spin >= 0 ? magnitude : -magnitude;
}

Body rest_point(const Shot& shot, const PhysicsParams& params) {
    std::array<Body, kStonesPerEnd> bodies{};
    bodies[0] = Body{0.0, 0.0, shot.vx, shot.vy, release_omega(params.model, shot.spin), true};
    run(bodies, params, false);
    return bodies[0];
}

double lateral_at(const Shot& shot, double y_line, const PhysicsParams& params) {
    Body b{0.0, 0.0, shot.vx, shot.vy, release_omega(params.model, shot.spin), true};
    double h = params.max_step;
    while (b.y < y_line) {
        const double v = speed_of(b);
        if (v <= 0.0) return std::nan("");
        const double limit = step_limit(params.model, v);
        if (limit < kStopHorizon * kStepFraction) return std::nan("");
        h = std::min(params.max_step, limit);
        const Body prev = b;
        advance(b, h, params.model);
        if (b.y >= y_line) {
            const double f = (y_line - prev.y) / (b.y - prev.y);
            return prev.x + f * (b.x - prev.x);
        }
    }
    return b.x;
}

Shot aim_through(double x, double y, double speed, int spin, const PhysicsParams& params) {
    double aim = std::atan2(x, y);
    Shot shot{speed * std::sin(aim), speed * std::cos(aim), spin >= 0 ? 1 : -1};
    for (int iter = 0; iter < 6; ++iter) {
        const double xc = lateral_at(shot, y, params);
        if (std::isnan(xc)) break;
        aim += std::atan2(x, y) - std::atan2(xc, y);
        shot.vx = speed * std::sin(aim);
        shot.vy = speed * std::cos(aim);
        if (std::fabs(xc - x) < 1e-4) break;
    }
    return shot;
}

double max_speed(Physics model) { return model == Physics::kGAT ? 40.0 : 4.0; }

Shot target_to_shot(const Target& target, Physics model) {
    const double r = std::hypot(target.x, target.y);
    const auto [v, phi] = draw_table(model).for_distance(r);
    const double spin = target.spin >= 0 ? 1.0 : -1.0;
    const double aim = std::atan2(target.x, target.y) - spin * phi;
    return Shot{v * std::sin(aim), v * std::cos(aim), target.spin >= 0 ? 1 : -1};
}

Target shot_to_target(const Shot& shot, Physics model) {
    const double v = std::hypot(shot.vx, shot.vy);
    const auto [r, phi] = draw_table(model).at_speed(v);
    const double spin = shot.spin >= 0 ? 1.0 : -1.0;
    const double bearing = std::atan2(shot.vx, shot.vy) + spin * phi;
    return Target{r * std::sin(bearing), r * std::cos(bearing), shot.spin >= 0 ? 1 : -1};
}

double normal(Rng& rng) {
    double u = rng.uniform();
    while (u <= 0.0) u = rng.uniform();
    const double w = rng.uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * kPi * w);
}

Shot perturb(const Shot& shot, const NoiseParams& noise, Physics model, Rng& rng) {
    if (noise.model == Noise::kDC3) {
        const double speed = std::min(std::hypot(shot.vx, shot.vy), max_speed(model)) + noise.sigma_speed * normal(rng);
        const double angle = std::atan2(shot.vy, shot.vx) + noise.sigma_angle * normal(rng);
        return Shot{speed * std::cos(angle), speed * std::sin(angle), shot.spin};
    }
    if (noise.model == Noise::kGAT) {
        const double px = noise.sigma_x * normal(rng);
        const double py = kTeeY + noise.sigma_y * normal(rng);
        const Shot tee = target_to_shot(Target{0.0, kTeeY, shot.spin}, model);
        const Shot off = target_to_shot(Target{px, py, shot.spin}, model);
        return Shot{shot.vx + tee.vx - off.vx, shot.vy + tee.vy - off.vy, shot.spin};
    }
    return shot;
}

bool in_house(double x, double y) { return std::hypot(x, y - kTeeY) < kInHouseDistance; }

bool in_free_guard_zone(double x, double y) {
    return y - kStoneRadius > kHogLineY && y + kStoneRadius < kTeeY && !in_house(x, y);
}

GameState::GameState(const Rules& rules) : rules_(rules) {
    if (rules.num_ends < 1) throw std::invalid_argument("num_ends must be >= 1, got " + std::to_string(rules.num_ends));
    if (rules.extra_ends < 0) throw std::invalid_argument("extra_ends must be >= 0, got " + std::to_string(rules.extra_ends));
    if (rules.fgz_shots < 0 || rules.fgz_shots > kStonesPerEnd) {
        throw std::invalid_argument("fgz_shots must be in 0..16, got " + std::to_string(rules.fgz_shots));
    }
}

void GameState::set_stone(int index, double x, double y, bool in_play) {
    stones_.at(static_cast<std::size_t>(index)) = Body{x, y, 0.0, 0.0, 0.0, in_play};
}

std::array<int, 2> GameState::total_score() const {
    std::array<int, 2> total{0, 0};
    for (const auto& s : end_scores_) {
        total[0] += s[0];
        total[1] += s[1];
    }
    return total;
}

std::array<int, 2> GameState::house_score() const {
    std::array<double, 2> nearest{kInHouseDistance, kInHouseDistance};
    std::array<double, kStonesPerEnd> dist{};
    for (int i = 0; i < kStonesPerEnd; ++i) {
        const Body& b = stones_[i];
        dist[i] = b.in_play ? std::hypot(b.x, b.y - kTeeY) : kInHouseDistance;
        const int team = team_of(i);
        nearest[team] = std::min(nearest[team], dist[i]);
    }
    std::array<int, 2> score{0, 0};
    if (nearest[0] == nearest[1]) return score;  // blank (or an exact tie)
    const int winner = nearest[0] < nearest[1] ? 0 : 1;
    for (int i = 0; i < kStonesPerEnd; ++i) {
        if (team_of(i) == winner && dist[i] < nearest[1 - winner]) ++score[winner];
    }
    return score;
}

bool GameState::throw_stone(const Shot& shot) {
    const int index = shot_;
    const int opponent = 1 - to_move();
    const std::array<Body, kStonesPerEnd> before = stones_;
    std::array<bool, kStonesPerEnd> guarded{};
    if (shot_ < rules_.fgz_shots) {
        for (int i = 0; i < index; ++i) {
            guarded[i] = team_of(i) == opponent && stones_[i].in_play && in_free_guard_zone(stones_[i].x, stones_[i].y);
        }
    }
    double vx = shot.vx;
    double vy = shot.vy;
    const double speed = std::hypot(vx, vy);
    const double cap = max_speed(rules_.physics.model);
    if (speed > cap) {
        vx *= cap / speed;
        vy *= cap / speed;
    }
    stones_[index] = Body{0.0, 0.0, vx, vy, release_omega(rules_.physics.model, shot.spin), true};
    simulate(stones_, rules_.physics);
    for (auto& b : stones_) {
        if (b.in_play && b.y - kStoneRadius <= kHogLineY) b.in_play = false;
        b.vx = b.vy = b.omega = 0.0;
    }
    ++shot_;
    for (int i = 0; i < index; ++i) {
        if (guarded[i] && !stones_[i].in_play) {
            stones_ = before;
            stones_[index] = Body{};
            return true;
        }
    }
    return false;
}

bool GameState::apply_no_end(const Shot& shot) { return throw_stone(shot); }

bool GameState::is_game_over() const {
    if (end_ < rules_.num_ends) return false;
    const auto total = total_score();
    return total[0] != total[1] || end_ >= rules_.num_ends + rules_.extra_ends;
}

bool GameState::apply(const Shot& shot) {
    const bool foul = throw_stone(shot);
    if (shot_ >= kStonesPerEnd) finish_end();
    return foul;
}

bool GameState::apply(const Shot& shot, const NoiseParams& noise, Rng& rng) {
    return apply(perturb(shot, noise, rules_.physics.model, rng));
}

void GameState::finish_end() {
    const auto score = house_score();
    end_scores_.push_back(score);
    if (score[0] > 0) hammer_ = 1;
    if (score[1] > 0) hammer_ = 0;
    ++end_;
    shot_ = 0;
    stones_ = {};
}

std::string GameState::to_string() const {
    std::ostringstream out;
    const auto total = total_score();
    out << "end " << end_ << "/" << rules_.num_ends << (in_extra_end() ? " (extra end)" : "") << ", shot " << shot_ << ", hammer team " << hammer_
        << ", score " << total[0] << "-" << total[1] << "\n";
    for (int i = 0; i < kStonesPerEnd; ++i) {
        if (!stones_[i].in_play) continue;
        out << "  stone " << i << " (team " << team_of(i) << "): x=" << stones_[i].x << " y=" << stones_[i].y
            << (in_house(stones_[i].x, stones_[i].y) ? " in house" : "") << "\n";
    }
    return out.str();
}

}  // namespace pyaz::curling
