// Python binding of the Gomoku mentor (search/gomoku_mentor.h). Arguments are checked and the
// state copied with the GIL held; the search runs without it and polls Ctrl-C.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "search/gomoku_mentor.h"

namespace py = pybind11;

namespace pyaz {
namespace {

// Runs `work(interrupted)` without the GIL; `interrupted` takes the GIL to ask Python for
// pending signals, and a KeyboardInterrupt (or a signal handler's error) is raised afterwards.
template <class Work>
auto without_gil(Work&& work) {
    bool signalled = false;
    auto interrupted = [&signalled] {
        py::gil_scoped_acquire gil;
        if (!signalled && PyErr_CheckSignals() != 0) signalled = true;
        return signalled;
    };
    decltype(work(interrupted)) result;
    {
        py::gil_scoped_release release;
        result = work(interrupted);
    }
    if (signalled) throw py::error_already_set();
    return result;
}

void check_at_least(const char* name, std::int64_t value, std::int64_t least) {
    if (value < least) {
        fail(std::string(name) + " must be >= " + std::to_string(least) + ", got " + std::to_string(value));
    }
}

py::object line_or_none(const std::vector<Action>& line) {
    if (line.empty()) return py::none();
    return py::cast(line);
}

py::dict info_dict(const GomokuMentorInfo& info) {
    py::dict d;
    d["reason"] = info.reason;
    d["depth"] = info.depth;
    d["nodes"] = info.nodes;
    d["score"] = info.score;
    d["time_ms"] = info.time_ms;
    d["line"] = info.line;
    d["threat"] = info.threat;
    d["answers_complete"] = info.answers_complete;
    d["root_moves"] = info.root_moves;
    d["candidates"] = info.candidates;
    d["root_scores"] = info.root_scores;
    return d;
}

GomokuMentorOptions make_options(double time_ms, std::int64_t max_nodes, int max_depth,
                                 double randomness, std::int64_t seed, int vcf_depth, int vct_depth) {
    check_at_least("seed", seed, 0);
    GomokuMentorOptions options;
    options.time_ms = time_ms;
    options.max_nodes = max_nodes;
    options.max_depth = max_depth;
    options.randomness = randomness;
    options.seed = static_cast<std::uint64_t>(seed);
    options.vcf_depth = vcf_depth;
    options.vct_depth = vct_depth;
    return options;  // the constructor checks the rest
}

// GomokuMentor.threat_search_planes: the planes of a batch [B, C, n, n] without the GIL, and the
// verdicts counted.
py::tuple batch_threat_search_planes(GomokuMentor& mentor, const py::array_t<float, py::array::c_style | py::array::forcecast>& planes,
                                     bool overline_wins) {
    if (planes.ndim() != 4 || planes.shape(1) < 2 || planes.shape(2) != planes.shape(3)) {
        fail("threat_search_planes takes Gomoku inputs of shape (batch, planes >= 2, n, n), got shape " +
             std::string(py::str(planes.attr("shape"))));
    }
    if (planes.shape(2) < GomokuMentor::kMinSize || planes.shape(2) > GomokuMentor::kMaxSize) {
        fail("GomokuMentor plays boards of size 9..15, got inputs of size " + std::to_string(planes.shape(2)));
    }
    const auto batch = planes.shape(0);
    const auto channels = planes.shape(1);
    const int n = static_cast<int>(planes.shape(2));
    const py::ssize_t cells = static_cast<py::ssize_t>(n) * n;
    py::array_t<float> out({batch, static_cast<py::ssize_t>(kThreatSearchPlanes), static_cast<py::ssize_t>(n),
                            static_cast<py::ssize_t>(n)});
    const float* in = planes.data();
    float* data = out.mutable_data();
    std::array<int, kNumThreatVerdicts> counts{};
    without_gil([&](const auto& interrupted) {
        for (py::ssize_t row = 0; row < batch && !interrupted(); ++row) {
            const float* input = in + row * channels * cells;
            const Gomoku state = Gomoku::from_planes(input, n, 5, overline_wins);
            const ThreatVerdict verdict = mentor.threat_search_planes(state, data + row * kThreatSearchPlanes * cells, interrupted);
            if (!is_terminal(state.status())) ++counts[static_cast<std::size_t>(verdict)];
        }
        return 0;
    });
    py::dict tally;
    for (int v = 0; v < kNumThreatVerdicts; ++v) {
        if (counts[static_cast<std::size_t>(v)] > 0) tally[threat_verdict_name(static_cast<ThreatVerdict>(v))] = counts[static_cast<std::size_t>(v)];
    }
    return py::make_tuple(out, tally);
}

}  // namespace

void register_gomoku_mentor(py::module_& m) {
    py::class_<GomokuMentor>(
        m, "GomokuMentor",
        "Rule-based free-style Gomoku player (seed 004's mentor): line patterns, VCF and VCT "
        "threat-space search, then iterative-deepening alpha-beta.\n\n"
        "Each move: complete a five ('win'); else block the opponent's five ('block'); else the "
        "first move of a VCF ('vcf') or VCT ('vct') found; else, if the opponent would win by VCF "
        "or VCT were it to move, alpha-beta among the moves that stop it ('defend'); else "
        "alpha-beta among the strongest moves near the stones ('search'). Boards 9..15, "
        "line_length 5, overlines as the state's rule says. Not for use from two threads at once "
        "(calls wait for each other).")
        .def(py::init([](double time_ms, std::int64_t max_nodes, int max_depth, double randomness,
                         std::int64_t seed, int vcf_depth, int vct_depth) {
                 return std::make_unique<GomokuMentor>(
                     make_options(time_ms, max_nodes, max_depth, randomness, seed, vcf_depth, vct_depth));
             }),
             py::kw_only(), py::arg("time_ms") = 1000.0, py::arg("max_nodes") = 0,
             py::arg("max_depth") = 0, py::arg("randomness") = 0.0, py::arg("seed") = 0,
             py::arg("vcf_depth") = 12, py::arg("vct_depth") = 6,
             "time_ms: time per move (0: none; at most MAX_TIME_MS, a day); max_nodes: nodes per move over all phases (0: "
             "none; with time_ms=0 the moves are deterministic); max_depth: alpha-beta depth cap "
             "(0: none); at least one limit must be set. randomness in [0, 1]: 0 plays the best "
             "move; otherwise a uniform pick among the moves whose alpha-beta score is within "
             "randomness * 400 of the best (400 is about an open three), and a random first move "
             "in the central 3x3, so self-play games differ; seed: its random numbers. "
             "vcf_depth / vct_depth: attacking moves in a VCF / VCT.")
        .def(
            "choose",
            [](GomokuMentor& mentor, const Gomoku& state) {
                GomokuMentor::check_playable(state);
                const Gomoku copy = state;
                return without_gil([&](const auto& interrupted) { return mentor.choose(copy, interrupted); });
            },
            py::arg("state"),
            "The mentor's action for the side to move. ValueError for a finished game, a board "
            "size outside 9..15 or a line_length other than 5; KeyboardInterrupt on Ctrl-C.")
        .def(
            "forced_moves",
            [](GomokuMentor& mentor, const Gomoku& state) {
                GomokuMentor::check_playable(state);
                const Gomoku copy = state;
                return without_gil([&](const auto& interrupted) { return mentor.forced_moves(copy, interrupted); });
            },
            py::arg("state"),
            "choose()'s threat analysis alone, within the same limits: [the move] that a five or "
            "a forced win dictates (last_info['reason'] 'win', 'block', 'vcf' or 'vct'); else the "
            "moves after which the opponent no longer wins by VCF/VCT ('defend'; [] when none "
            "was found among the moves tried: its strongest 24 (VCT) or 40 (VCF) candidates, the "
            "threat's cells and its own fours; when last_info['answers_complete'] is False the "
            "budget ran out before all were tried); else [] ('none'). Errors as choose().")
        .def(
            "read_threats",
            [](GomokuMentor& mentor, const Gomoku& state) {
                GomokuMentor::check_playable(state);
                const Gomoku copy = state;
                const ThreatReading reading =
                    without_gil([&](const auto& interrupted) { return mentor.read_threats(copy, interrupted); });
                return py::make_tuple(threat_verdict_name(reading.verdict), reading.moves);
            },
            py::arg("state"),
            "forced_moves() read as (verdict, moves): 'win', 'block', 'vcf' or 'vct' and the one "
            "move it dictates; 'defend' and every move that stops the opponent's forced win; "
            "'lost' and [] (no move tried stops it, or the opponent has two fives to complete); "
            "'unproven' and [] (the budget ran out before every answer was tried: proves "
            "nothing); 'none' and []. Errors as choose().")
        .def("threat_search_planes", &batch_threat_search_planes, py::arg("planes"), py::arg("overline_wins") = true,
             "The threat-search planes (pyaz.nets.threat_search) of a batch of Gomoku network "
             "inputs (batch, C >= 2, n, n), planes 0 and 1 the side to move's stones and the "
             "opponent's: (float32 (batch, 4, n, n), {verdict: count}), the four planes from "
             "read_threats() of each position (finished games: zeros, not counted). ValueError for "
             "another shape or a position no game reaches; KeyboardInterrupt on Ctrl-C.")
        .def_property_readonly(
            "last_info",
            [](const GomokuMentor& mentor) {
                GomokuMentorInfo info;
                {
                    py::gil_scoped_release release;  // a call in another thread may hold the lock
                    info = mentor.last_info();
                }
                return info_dict(info);
            },
            "What the last choose() or forced_moves() did: reason ('opening', 'win', 'block', 'vcf', 'vct', "
            "'defend', 'search', 'none'), depth (completed alpha-beta depth), nodes, score (alpha-beta, "
            "for the mover; wins near +-1,000,000), time_ms, line (the forced win played, as "
            "actions), threat (the opponent's forced line that 'defend' answered), answers_complete "
            "(False when the budget ran out before every answer to it was tried), root_moves, "
            "candidates (moves within the random margin), root_scores ((action, score) pairs of "
            "the last completed iteration, best first; below best - margin only upper bounds).")
        .def(
            "find_vcf",
            [](GomokuMentor& mentor, const Gomoku& state, int max_depth, std::int64_t max_nodes) {
                check_at_least("max_depth", max_depth, 0);
                check_at_least("max_nodes", max_nodes, 0);
                GomokuMentor::check_playable(state);
                const Gomoku copy = state;
                return line_or_none(without_gil([&](const auto& interrupted) {
                    return mentor.find_vcf(copy, max_depth, max_nodes, interrupted);
                }));
            },
            py::arg("state"), py::arg("max_depth") = 12, py::arg("max_nodes") = 1000000,
            "A victory by continuous fours for the side to move within max_depth fours, or None: "
            "the actions attacker, reply, attacker, ..., ending with the five. Every reply but "
            "the last is forced (the only cell that stops a five); the last follows an open four "
            "or a double four, where any reply loses. max_nodes 0: no node limit.")
        .def(
            "find_vct",
            [](GomokuMentor& mentor, const Gomoku& state, int max_depth, std::int64_t max_nodes,
               double time_ms) {
                check_at_least("max_depth", max_depth, 0);
                check_at_least("max_nodes", max_nodes, 0);
                if (!(time_ms >= 0.0)) fail("time_ms must be >= 0, got " + std::to_string(time_ms));
                GomokuMentor::check_time_ms(time_ms);
                GomokuMentor::check_playable(state);
                const Gomoku copy = state;
                return line_or_none(without_gil([&](const auto& interrupted) {
                    return mentor.find_vct(copy, max_depth, max_nodes, time_ms, interrupted);
                }));
            },
            py::arg("state"), py::arg("max_depth") = 6, py::arg("max_nodes") = 2000000,
            py::arg("time_ms") = 0.0,
            "A victory by continuous threats (threes and fours) for the side to move within "
            "max_depth attacking moves, or None: the shortest found, as the actions of one line "
            "(after a three the defender has several answers; the attacker wins against each). "
            "max_nodes / time_ms 0: no such limit.")
        .def_static(
            "threat_map",
            [](const Gomoku& state, int colour) {
                const std::vector<int> codes = GomokuMentor::threat_map(state, colour);
                py::array_t<std::int8_t> out({state.size(), state.size()});
                std::int8_t* data = out.mutable_data();
                for (std::size_t i = 0; i < codes.size(); ++i) data[i] = static_cast<std::int8_t>(codes[i]);
                return out;
            },
            py::arg("state"), py::arg("colour"),
            "int8 (n, n): what a stone of colour (0 = X) would make on each cell: 0 nothing "
            "forcing, 1 an open three, 2 two open threes, 3 a four, 4 a four and an open three, "
            "5 an open four or two fours, 6 a five; 0 on occupied cells.")
        .def_property_readonly_static(
            "MAX_TIME_MS", [](const py::object&) { return GomokuMentor::kMaxTimeMs; },
            "The largest time_ms taken (a day); a caller with a longer budget must cap it.")
        .def_property_readonly_static(
            "THREAT_SEARCH_PLANES", [](const py::object&) { return kThreatSearchPlanes; },
            "The planes threat_search_planes() gives a position.");
}

}  // namespace pyaz
