// The words of chat, invitations, the leaderboard and profiles (issue 15), English and Arabic
// (same conventions as i18n.ts). Kept apart from i18n.ts so the table's strings and these
// evolve without touching each other. Quick phrases are sent as ids (docs/protocol.md "Chat"):
// each client shows them in its own language, from PHRASES.
import { lang, type Lang } from './i18n';

const en = {
  chat: 'Chat',
  chatPlaceholder: 'Say something…',
  send: 'Send',
  mute: 'Mute',
  unmute: 'Unmute',
  muted: 'muted',
  spectatorsChannel: 'spectators',
  spectatorsNote: 'Spectators chat among themselves; players do not see it during a match.',
  noChat: 'No messages yet.',
  quickPhrases: 'Quick phrases',
  invite: 'Invite link',
  copy: 'Copy',
  copied: 'Copied',
  inviteHint: 'Anyone with this link can join this table.',
  leaderboard: 'Leaderboard',
  registered: 'Registered players',
  guests: 'Guests',
  noRegistered: 'No registered player has played a rated match yet.',
  noPlayers: 'No guest has played a rated match yet.',
  boardRule: 'Players appear here after their first rated match: four people at a rated table (matches with computer players and casual tables are not rated).',
  youNotYet: 'You are registered: you will appear here after your first rated match.',
  youGuestNotYet: 'You will appear here after your first rated match; register to keep your rating.',
  rank: '#',
  player: 'Player',
  rating: 'Rating',
  matches: 'Matches',
  wins: 'Wins',
  profile: 'Profile',
  noSuchPlayer: 'No player has this name.',
  ratingHistory: 'Rating',
  noHistory: 'No rated public match yet.',
  noMatches: 'No public match yet.',
  contracts: 'Contracts',
  made: 'made',
  averageBid: 'Average bid',
  recentMatches: 'Recent public matches',
  tournaments: 'Tournaments',
  noTournaments: 'No tournaments yet.',
  partner: 'with',
  champion: 'champions',
  won: 'won',
  lost: 'lost',
  drawn: 'drawn',
  closed: 'closed',
  replay: 'Replay',
  back: 'Lobby',
  loading: 'Loading…',
  guest: 'guest',
  publicOnly: 'Only public tables’ matches are listed.',
};

type SKey = keyof typeof en;

const ar: Record<SKey, string> = {
  chat: 'الدردشة',
  chatPlaceholder: 'اكتب رسالة…',
  send: 'إرسال',
  mute: 'كتم',
  unmute: 'إلغاء الكتم',
  muted: 'مكتوم',
  spectatorsChannel: 'المتفرجون',
  spectatorsNote: 'دردشة المتفرجين بينهم؛ لا يراها اللاعبون أثناء اللعب.',
  noChat: 'لا رسائل بعد.',
  quickPhrases: 'عبارات سريعة',
  invite: 'رابط الدعوة',
  copy: 'نسخ',
  copied: 'تم النسخ',
  inviteHint: 'من معه هذا الرابط يستطيع الانضمام إلى هذه الطاولة.',
  leaderboard: 'لوحة المتصدرين',
  registered: 'اللاعبون المسجلون',
  guests: 'الضيوف',
  noRegistered: 'لم يلعب أي لاعب مسجَّل مباراة مصنَّفة بعد.',
  noPlayers: 'لم يلعب أي ضيف مباراة مصنَّفة بعد.',
  boardRule: 'يظهر اللاعب هنا بعد أول مباراة مصنَّفة له: أربعة أشخاص على طاولة مصنَّفة (المباريات مع لاعبين آليين والطاولات الودّية لا تُصنَّف).',
  youNotYet: 'أنت مسجَّل: ستظهر هنا بعد أول مباراة مصنَّفة لك.',
  youGuestNotYet: 'ستظهر هنا بعد أول مباراة مصنَّفة لك؛ سجّل اسمك لتحتفظ بتصنيفك.',
  rank: '#',
  player: 'اللاعب',
  rating: 'التصنيف',
  matches: 'المباريات',
  wins: 'الفوز',
  profile: 'الملف',
  noSuchPlayer: 'لا يوجد لاعب بهذا الاسم.',
  ratingHistory: 'التصنيف',
  noHistory: 'لا مباراة عامة مصنفة بعد.',
  noMatches: 'لا مباريات عامة بعد.',
  contracts: 'العقود',
  made: 'ناجحة',
  averageBid: 'متوسط الطلب',
  recentMatches: 'آخر المباريات العامة',
  tournaments: 'البطولات',
  noTournaments: 'لا بطولات بعد.',
  partner: 'مع',
  champion: 'أبطال',
  won: 'فوز',
  lost: 'خسارة',
  drawn: 'تعادل',
  closed: 'مغلقة',
  replay: 'إعادة العرض',
  back: 'الصالة',
  loading: 'جار التحميل…',
  guest: 'ضيف',
  publicOnly: 'تظهر مباريات الطاولات العامة فقط.',
};

const WORDS: Record<Lang, Record<SKey, string>> = { en, ar };

export function st(key: SKey, l: Lang = lang()): string {
  return WORDS[l][key];
}

/** The quick phrases, by the id the server knows (chat.hpp quick_phrases()), in each language. */
export const PHRASES: Record<string, Record<Lang, string>> = {
  yalla: { en: 'Come on!', ar: 'يلا' },
  afye: { en: 'Well done, thank you', ar: 'الله يعطيك العافية' },
  well_played: { en: 'Well played', ar: 'عاش، لعب حلو' },
  good_luck: { en: 'Good luck', ar: 'بالتوفيق' },
  thanks: { en: 'Thanks', ar: 'شكراً' },
  sorry: { en: 'Sorry', ar: 'آسف' },
  hurry: { en: 'Hurry up, please', ar: 'بسرعة لو سمحت' },
  one_more: { en: 'One more match?', ar: 'كمان وحدة؟' },
};

export const PHRASE_IDS = Object.keys(PHRASES);

/** A phrase id in the reader's language (an id this client does not know is shown as it is). */
export function phraseText(id: string, l: Lang = lang()): string {
  return PHRASES[id]?.[l] ?? id;
}
