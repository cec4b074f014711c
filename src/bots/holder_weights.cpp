// The holder model's weights (include/tarneeb/bots/holder_model.hpp), written by
// tools/train_holder_model.py; do not edit by hand. Fitted on: build/release/bench/holder_data --deals 20000 --positions 3 --seed 1 (levantine, the heuristic of issue 29's card play, d1f0e65); 870,048 rows fitted, 217,512 held out
//    0 left                   +0.01065
//    1 partner                +0.00014
//    2 right                  -0.01079
//    3 log_cards_left         +0.84677
//    4 bid                    -0.14115
//    5 only_passed            +0.10943
//    6 declarer               -0.30209
//    7 voids_elsewhere        +0.36991
//    8 trump_x_declarer       +0.97706
//    9 rank_x_declarer        +0.00555
//   10 rank_x_bid             +0.14450
//   11 trump_rank_x_declarer  -0.19222
//   12 played_suit            -0.95418
//   13 led_suit               +2.00093
//   14 discarded_suit         -1.44676
//   15 ruffed_x_trump         -0.27828
//   16 declined               +0.33127
//   17 led_below              +0.04152
//   18 rank_x_only_passed     -0.24570
//   19 rank_x_led_suit        -1.83982
//   20 trump_x_partner_declares -0.11440
#include "tarneeb/bots/holder_model.hpp"

namespace tarneeb::bots {

const HolderWeights& fitted_holder_weights() {
    static const HolderWeights w{0.0106488725, 0.000143553729, -0.0107924262, 0.846773659, -0.141150043, 0.109430052, -0.302092298, 0.369905947, 0.977062205, 0.00554935975, 0.144501379, -0.192218223, -0.954180613, 2.00092992, -1.44676318, -0.278275302, 0.331272002, 0.0415223093, -0.245704071, -1.83981794, -0.114402705};
    return w;
}

}  // namespace tarneeb::bots
