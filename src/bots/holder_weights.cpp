// The holder model's weights (include/tarneeb/bots/holder_model.hpp), written by
// tools/train_holder_model.py; do not edit by hand. Fitted on: build/release/bench/holder_data --deals 20000 --positions 3 --seed 1 (levantine, the heuristic of 2b90c93); 871,746 rows fitted, 217,937 held out
//    0 left                   +0.01341
//    1 partner                +0.00146
//    2 right                  -0.01487
//    3 log_cards_left         +0.72098
//    4 bid                    -0.05179
//    5 only_passed            +0.15146
//    6 declarer               -0.31579
//    7 voids_elsewhere        +0.27804
//    8 trump_x_declarer       +1.13885
//    9 rank_x_declarer        -0.29543
//   10 rank_x_bid             +0.19475
//   11 trump_rank_x_declarer  +0.06287
//   12 played_suit            -0.93341
//   13 led_suit               +1.16769
//   14 discarded_suit         -1.12419
//   15 ruffed_x_trump         -0.45401
//   16 declined               +0.33823
//   17 led_below              +0.71098
//   18 rank_x_only_passed     -0.22063
//   19 rank_x_led_suit        -1.69952
//   20 trump_x_partner_declares -0.05946
#include "tarneeb/bots/holder_model.hpp"

namespace tarneeb::bots {

const HolderWeights& fitted_holder_weights() {
    static const HolderWeights w{0.01340907, 0.00145913685, -0.0148682068, 0.720984403, -0.0517901678, 0.151457486, -0.315789135, 0.278039982, 1.13885116, -0.295434905, 0.194752221, 0.0628694231, -0.933414795, 1.16769097, -1.12419218, -0.454014988, 0.33823126, 0.710978145, -0.220631379, -1.69952284, -0.0594643777};
    return w;
}

}  // namespace tarneeb::bots
