// The rules page in English: each preset's rules as docs/rules.md states them (change both
// together). HTML strings of our own text only (no data from the server).
import { count } from './plural';
import { EXAMPLES, exampleText, type Preset } from './rules_examples';

export interface Section {
  id: string;
  title: string;
  /** A sentence before the list, if any. */
  intro?: string;
  items: string[];
}

const RANKS = '<bdi dir="ltr">A K Q J 10 9 8 7 6 5 4 3 2</bdi>';

export function sectionsEn(p: Preset, target: number | null): Section[] {
  const lev = p === 'levantine';
  const goal = count(target ?? 31, 'point', 'en');
  const goalNote = target !== null && target !== 31 ? ' (this table’s target; the usual one is 31)' : ' (a table may set another target)';
  return [
    {
      id: 'players',
      title: 'Players and cards',
      items: [
        'Four players in two teams; partners sit opposite each other.',
        'One deck of 52 cards, no jokers. Each player gets 13 cards, so every round has 13 tricks.',
        'Everything goes to the right (counter-clockwise): the deal, the auction, the play of each trick and the next dealer.',
        'The dealer deals one card at a time, starting with the player to the dealer’s right.',
        `Cards rank ${RANKS} in every suit, trump included: the ace is highest, the 2 lowest.`,
      ],
    },
    {
      id: 'auction',
      title: 'The auction',
      items: [
        'The player to the dealer’s right speaks first. A bid is the number of tricks your team promises to take: 7 to 13.',
        ...(lev
          ? [
              'On your turn, pass or bid higher than the highest bid so far. An equal bid is never allowed, not even over your partner.',
              'A pass does not shut you out: if the turn comes back to you, you may bid again. Once someone bids 13, the others can only pass.',
              'The auction ends when three players in a row pass after the highest bid.',
              'If all four pass the first time round, the deal is passed out (no contract, no score) and the <b>next</b> dealer deals.',
            ]
          : [
              'Each player speaks exactly once, bid or pass, starting after the dealer and ending with the dealer.',
              'Each bid must be higher than every bid before it, except the dealer’s: the dealer, speaking last, may <b>equal</b> the highest bid and so take the contract.',
              'If all four pass, the cards are thrown in (no contract, no score) and the <b>same</b> dealer deals again.',
            ]),
      ],
    },
    {
      id: 'trump',
      title: 'Trump',
      items: [
        'The highest bidder (the declarer) names trump: one of the four suits. There is no no-trump.',
        'The declarer leads the first trick.',
      ],
    },
    {
      id: 'play',
      title: 'Play',
      items: [
        'Follow the suit led if you can; otherwise play any card. You never have to trump, nor to overtrump.',
        'The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. A card of any other suit never wins.',
        'The winner of a trick leads the next one. All 13 tricks are always played, even once the contract is decided.',
      ],
    },
    {
      id: 'scoring',
      title: 'Scoring',
      items: [
        lev
          ? 'Made (the declaring team takes at least its bid): it scores <b>its bid</b>. Extra tricks count for nothing; the defenders score 0.'
          : 'Made (the declaring team takes at least its bid): it scores <b>the tricks it took</b>, extra tricks included; the defenders score 0.',
        'Set (fewer tricks than the bid): the declaring team loses its bid, and the defenders score one point per trick they took.',
        'Only one team gains points in a round. Scores can go below zero.',
      ],
    },
    {
      id: 'examples',
      title: 'Scoring examples',
      items: EXAMPLES[p].map((e) => exampleText(e, 'en')),
    },
    {
      id: 'match',
      title: 'Winning the match',
      items: [
        `The first team to reach or pass ${goal} wins${goalNote}. Only one team gains points in a round, so both can never reach it together.`,
        `After every scored round the deal moves one seat on, to the right. ${lev ? 'A passed-out deal goes to the next dealer too.' : 'After a thrown-in deal the same dealer deals again.'}`,
        `After ${count(50, 'round', 'en')} scored without a winner, the higher score wins; equal scores are a draw. Passed-out deals never count. In a tournament bracket a draw goes to the team that gained points in the last scored round.`,
        `After ${count(8, 'deal', 'en')} passed out in a row, the table closes with no result.`,
      ],
    },
    {
      id: 'timer',
      title: 'When your time runs out',
      intro: 'At a table with a turn timer, when your time runs out the table plays for you:',
      items: [
        'in the auction: <b>pass</b>;',
        'naming trump: your <b>longest suit</b>; between suits of the same length, the one with the higher cards (compared from the top down); between suits with the same ranks, in the order Spades, Hearts, Diamonds, Clubs;',
        'in play: your <b>weakest legal card</b>: when following suit, the lowest card of the suit led; otherwise the lowest card that is not a trump, or the lowest trump if only trumps are left; between suits at the same rank, Clubs first, then Diamonds, Hearts, Spades.',
      ],
    },
  ];
}
