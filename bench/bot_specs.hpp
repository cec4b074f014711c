// Bot specs for the benchmarks: a registry name or a variant of the fast bots (heuristic_duel,
// bid_vs_par, par_gap):
//   heuristic | random | pimc ...          a registry bot (bot.hpp)
//   heuristic:KNOB=V,...                  the heuristic with HeuristicParams knobs changed
//                                         (base, slope, partner_extra, opponent_bid,
//                                         margin_levantine, margin_classic, raise_min_own,
//                                         pass_margin, preempt)
//   heuristic-old[:KNOB=V,...]            the heuristic before issue 13 (expected_points = false,
//                                         partner_extra = 0.3), today's card play
//   heuristic-oldplay[:KNOB=V,...]        today's heuristic auction and trump with the card play
//                                         before issue 29 (oldplay_params(): every card rule off,
//                                         the old knobs; 0 [0, 0] against the frozen copy it replaced): against
//                                         `heuristic` the contracts are equal, only card play differs
//   heuristic-oldfit[:KNOB=V,...]         the heuristic with the levantine bidding constants fitted
//                                         on the card play before issue 29 (kOldFitModel: the
//                                         FIT block of heuristic_bot.cpp until the refit), the
//                                         rest today's: against `heuristic` only the fit differs
//   pimc-auction[:KNOB=V,...]             the registry pimc's auction and trump (PimcBidding knobs
//                                         changed: threshold, classic_threshold, partner_base,
//                                         partner_slope, opponent_bid, raise_min, sd, partner_passed,
//                                         expected_points, pass_margin, preempt) with the
//                                         heuristic's card play (no solving)
//   pimc-auction-old[:KNOB=V,...]         the same from PimcOptions defaults (issue 4's auction)
//   pimc:KNOB=V,...                       the registry pimc whole (card play too) with knobs
//                                         changed: the auction's above and samples, first,
//                                         second (per-trick layouts), budget (ms), threads,
//                                         miss_call, miss_card, model_partner, tries, learned,
//                                         exact (PimcOptions::exact_layouts), policy_tricks,
//                                         policy, policy_partner (model_policy, ..._partner),
//                                         points (points_objective)
//   pimc-cards[:KNOB=V,...]               the heuristic's auction and trump, pimc's card play
//   learned[:margin=M,KNOB=V,...]         LearnedBot (learned_bot.hpp): the auction and trump of
//                                         learned_auction() with heuristic KNOBs changed, the
//                                         learned card policy's cards; another
//                                         card than the heuristic's only when its score is more
//                                         than M (default kLearnedMargin, 0.25) above the heuristic's;
//                                         with TARNEEB_LEARNED_WEIGHTS=FILE set, the nets of FILE
//                                         (float32, tools/train_card_policy.py --raw) instead of
//                                         the compiled-in ones (to compare fits without building)
#pragma once

#include <cstdlib>
#include <fstream>
#include <memory>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tarneeb/bots/bid_model.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/bots/pimc_bot.hpp"

namespace tarneeb::bots {

/// The heuristic's levantine bidding model as fitted on the card play before issue 29
/// (tools/fit_bidding.py on bench/bid_data --deals 100000 --seed 77 with that card play).
inline constexpr LevantineBidModel kOldFitModel{
    {+4.6254, +0.6448, -0.9213, -0.0928, -0.6398, +0.0955, +0.2580, -0.3650},
    {1.6225, 1.6808, 1.4749},
    {+9.0073, +0.2101, -0.7125, +0.4782, -0.0630},
    {1.6925, 1.5879, 1.6069}};

/// The heuristic with the levantine expected-points auction on kOldFitModel; every other
/// decision (classic calls, trump, cards) the HeuristicBot's with the same params.
class OldFitHeuristicBot final : public Bot {
public:
    OldFitHeuristicBot(std::uint64_t seed, const HeuristicParams& p) : params_(p), bot_(seed, p) {}
    std::string_view name() const override { return "heuristic-oldfit"; }
    Action decide_call(const SeatView& v) override {
        if (v.rules().scoring != ScoringStyle::bid_value || !params_.expected_points) return bot_.decide_call(v);
        const double own = estimate_tricks(v.hand(), best_trump(v.hand()));
        const int bid = levantine_expected_points_call(v, own, kOldFitModel, params_.pass_margin, params_.preempt);
        return bid > 0 ? Action::bid(bid) : Action::pass();
    }
    Action decide_trump(const SeatView& v) override { return bot_.decide_trump(v); }
    Action decide_card(const SeatView& v) override { return bot_.decide_card(v); }

private:
    HeuristicParams params_;
    HeuristicBot bot_;
};

/// One bot's auction and trump with another bot's card play.
class SplitBot final : public Bot {
public:
    SplitBot(std::string name, std::unique_ptr<Bot> auction, std::unique_ptr<Bot> cards)
        : name_(std::move(name)), auction_(std::move(auction)), cards_(std::move(cards)) {}
    std::string_view name() const override { return name_; }
    Action decide_call(const SeatView& v) override { return auction_->decide_call(v); }
    Action decide_trump(const SeatView& v) override { return auction_->decide_trump(v); }
    Action decide_card(const SeatView& v) override { return cards_->decide_card(v); }

private:
    std::string name_;
    std::unique_ptr<Bot> auction_, cards_;
};

/// Sets the PimcBidding knob `k` (threshold, classic_threshold, partner_passed, partner_base,
/// partner_slope, opponent_bid, raise_min, sd, expected_points, pass_margin, preempt,
/// declarer_shift, defender_shift) to `v`; false when `k` is none of them.
inline bool set_bidding_knob(PimcBidding& b, const std::string& k, double v) {
    if (k == "threshold") b.threshold = v;
    else if (k == "classic_threshold") b.classic_threshold = v;
    else if (k == "partner_passed") b.partner_passed = v;
    else if (k == "partner_base") b.partner_base = v;
    else if (k == "partner_slope") b.partner_slope = v;
    else if (k == "opponent_bid") b.opponent_bid = v;
    else if (k == "raise_min") b.raise_min = v;
    else if (k == "sd") b.sd = v;
    else if (k == "expected_points") b.expected_points = v != 0;
    else if (k == "pass_margin") b.pass_margin = v;
    else if (k == "preempt") b.preempt = v;
    else if (k == "declarer_shift") b.declarer_shift = v;
    else if (k == "defender_shift") b.defender_shift = v;
    else return false;
    return true;
}

/// Sets HeuristicParams knob `k` to `v` (bench names: those of the fields, `cards` the
/// card_rules bits, `cards_off` bits taken out of them); false if `k` names no knob.
inline bool set_heuristic_knob(HeuristicParams& p, const std::string& k, double v) {
    if (k == "base") p.base = v;
    else if (k == "slope") p.slope = v;
    else if (k == "partner_extra") p.partner_extra = v;
    else if (k == "opponent_bid") p.opponent_bid = v;
    else if (k == "margin_levantine") p.margin_levantine = v;
    else if (k == "margin_classic") p.margin_classic = v;
    else if (k == "raise_min_own") p.raise_min_own = v;
    else if (k == "pass_margin") p.pass_margin = v;
    else if (k == "preempt") p.preempt = v;
    else if (k == "declarer_shift") p.declarer_shift = v;
    else if (k == "defender_shift") p.defender_shift = v;
    else if (k == "cards") p.card_rules = static_cast<unsigned>(v);
    else if (k == "draw_len") p.draw_len = static_cast<int>(v);
    else if (k == "draw_slack") p.draw_slack = static_cast<int>(v);
    else if (k == "void_guess") p.void_guess = static_cast<int>(v);
    else if (k == "cash_guess") p.cash_guess = static_cast<int>(v);
    else if (k == "cards_off") p.card_rules &= ~static_cast<unsigned>(v);
    else return false;
    return true;
}

/// The learned player's nets: those of the float32 file TARNEEB_LEARNED_WEIGHTS names
/// (tools/train_card_policy.py --raw: whole nets, one after another), read once, or the
/// compiled-in fitted_card_policy(). Throws std::runtime_error if the file cannot be read or does
/// not hold a whole number of nets.
inline std::span<const CardPolicyWeights> learned_nets() {
    static const std::vector<CardPolicyWeights> nets = [] {
        std::vector<CardPolicyWeights> out;
        const char* path = std::getenv("TARNEEB_LEARNED_WEIGHTS");
        if (path == nullptr || *path == 0) return out;
        std::ifstream in(path, std::ios::binary);
        CardPolicyWeights w;
        auto read = [&](auto& a) {
            return static_cast<bool>(in.read(reinterpret_cast<char*>(a.data()), static_cast<std::streamsize>(a.size() * sizeof(float))));
        };
        while (read(w.w1) && read(w.b1) && read(w.w2) && read(w.linear)) out.push_back(w);
        if (out.empty() || in.gcount() != 0) throw std::runtime_error(std::string("cannot read whole nets from ") + path);
        return out;
    }();
    if (nets.empty()) return fitted_card_policy();
    return nets;
}

inline std::unique_ptr<Bot> make_spec_bot(const std::string& spec, std::uint64_t seed) {
    const auto colon = spec.find(':');
    const std::string base = spec.substr(0, colon);
    std::vector<std::pair<std::string, double>> knobs;
    if (colon != std::string::npos) {
        std::istringstream in(spec.substr(colon + 1));
        for (std::string kv; std::getline(in, kv, ',');) {
            const auto eq = kv.find('=');
            knobs.emplace_back(kv.substr(0, eq), std::stod(kv.substr(eq + 1)));
        }
    }
    if (base == "heuristic" || base == "heuristic-old" || base == "heuristic-oldplay" || base == "heuristic-oldfit") {
        HeuristicParams p = base == "heuristic-oldplay" ? oldplay_params() : HeuristicParams{};
        p.expected_points = base != "heuristic-old";
        if (base == "heuristic-old") p.partner_extra = 0.3;  // its value before issue 29
        for (const auto& [k, v] : knobs)
            if (!set_heuristic_knob(p, k, v)) throw std::runtime_error("unknown heuristic knob " + k);
        if (base == "heuristic-oldfit") return std::make_unique<OldFitHeuristicBot>(seed, p);
        return std::make_unique<HeuristicBot>(seed, p);
    }
    if (base == "learned") {
        float margin = kLearnedMargin;
        HeuristicParams auction = learned_auction();
        for (const auto& [k, v] : knobs) {
            if (k == "margin") margin = static_cast<float>(v);
            else if (!set_heuristic_knob(auction, k, v)) throw std::runtime_error("unknown learned knob " + k);
        }
        return std::make_unique<LearnedBot>(seed, margin, learned_nets(), "learned", auction);
    }
    const bool whole = base == "pimc" && colon != std::string::npos;
    if (base == "pimc-auction" || base == "pimc-auction-old" || whole || base == "pimc-cards") {
        PimcOptions o = base == "pimc-auction-old" ? PimcOptions{} : registry_pimc_options();
        auto& b = o.bidding;
        for (const auto& [k, v] : knobs) {
            if (set_bidding_knob(b, k, v)) continue;
            if (k == "samples") o.samples = static_cast<int>(v);
            else if (k == "first") o.first_trick_samples = static_cast<int>(v);
            else if (k == "second") o.second_trick_samples = static_cast<int>(v);
            else if (k == "budget") o.time_budget_ms = v;
            else if (k == "threads") o.threads = static_cast<int>(v);
            else if (k == "miss_call") o.model_miss_call = v;
            else if (k == "miss_card") o.model_miss_card = v;
            else if (k == "model_partner") o.model_partner = v != 0;
            else if (k == "learned") o.model_learned = v;
            else if (k == "points") o.points_objective = v != 0;
            else if (k == "policy") o.model_policy = v;
            else if (k == "policy_partner") o.model_policy_partner = v != 0;
            else if (k == "exact") o.exact_layouts = static_cast<int>(v);
            else if (k == "policy_tricks") o.policy_tricks = static_cast<int>(v);
            else if (k == "tries") o.sample_tries = static_cast<int>(v);
            else throw std::runtime_error("unknown pimc knob " + k);
        }
        if (whole) return std::make_unique<PimcBot>(seed, o);
        if (base == "pimc-cards")
            return std::make_unique<SplitBot>(base, std::make_unique<HeuristicBot>(seed), std::make_unique<PimcBot>(seed, o));
        return std::make_unique<SplitBot>(base, std::make_unique<PimcBot>(seed, o), std::make_unique<HeuristicBot>(seed));
    }
    if (auto b = make_bot(spec, seed)) return b;
    throw std::runtime_error("unknown player " + spec);
}

/// Why `spec` is no bot make_spec_bot can make, "" when it is one (a command-line check).
inline std::string spec_error(const std::string& spec) {
    try {
        make_spec_bot(spec, 0);
        return {};
    } catch (const std::exception& e) {
        return "bad bot spec " + spec + " (" + e.what() + ")";
    }
}

}  // namespace tarneeb::bots
