// English and Arabic. Arabic is right-to-left and uses the game's own words:
// حكم (hokm) for trump (طرنيب is the game's name only), لفة (laffa, plural لفات) for a trick, and
// the Eastern Arabic digits.
import type { Suit } from './protocol';

export type Lang = 'en' | 'ar';

const en = {
  title: 'Tarneeb',
  signInTitle: 'Play Tarneeb',
  yourName: 'Your name',
  signIn: 'Sign in',
  connecting: 'Connecting…',
  reconnecting: 'Connection lost, reconnecting…',
  lobby: 'Lobby',
  openTables: 'Open tables',
  noTables: 'No open tables yet. Create one!',
  finishedTables: 'Finished matches',
  refresh: 'Refresh',
  nextPage: 'More tables →',
  prevPage: '← Previous tables',
  createTable: 'New table',
  preset: 'Rules',
  levantine: 'Levantine',
  classic: 'Classic',
  target: 'Play to',
  timer: 'Turn timer (s, 0 = none)',
  privateTable: 'Private table (join code)',
  botsFree: 'Bots in the free seats',
  casualTable: 'Casual (not rated; hints on)',
  rated: 'rated',
  casual: 'casual',
  create: 'Create',
  joinPrivate: 'Join a private table',
  tableId: 'Table',
  code: 'Code',
  join: 'Join',
  watch: 'Watch',
  sit: 'Sit here',
  free: 'free',
  addBot: 'Add bot',
  removeBot: 'Remove bot',
  start: 'Start',
  leave: 'Leave',
  st_waiting: 'waiting',
  st_playing: 'playing',
  st_finished: 'finished',
  secs: 's',
  leaveConfirm: 'Leave the match? A bot will play your seat.',
  waitingPlayers: 'Waiting for four players',
  shareCode: 'Join code',
  signOut: 'Sign out',
  you: 'you',
  playOffline: 'Play offline',
  offlineHint: 'Against three computer players, in this page: no server, no network.',
  offlineName: 'You',
  leaveOfflineConfirm: 'Leave the match? It ends here.',
  partner: 'partner',
  bot: 'bot',
  away: 'away',
  spectator: 'Watching',
  spectators: 'watching',
  dealer: 'Dealer',
  dealerMark: 'D',
  auction: 'Auction',
  pass: 'Pass',
  bid: 'Bid',
  yourBid: 'Your call',
  chooseTrump: 'Name trump',
  suggested: 'suggested',
  trump: 'Trump',
  contract: 'Contract',
  trick: 'Trick',
  tricks: 'Tricks',
  ledBy: 'led',
  lastTrick: 'Last trick',
  hint: 'Hint',
  sounds: 'Sounds',
  cardsLeft: 'cards',
  toAct: 'to play',
  wonBy: 'won by',
  noLastTrick: 'No trick played yet.',
  close: 'Close',
  us: 'Us',
  them: 'Them',
  team0: 'Team A',
  team1: 'Team B',
  score: 'Score',
  scoreSheet: 'Score sheet',
  round: 'Round',
  yourTurn: 'Your turn',
  waitingFor: 'Waiting for',
  roundSummary: 'Round summary',
  made: 'made',
  set: 'set',
  points: 'Points',
  continue: 'Continue',
  passedOut: 'Everyone passed: new deal',
  matchOver: 'Match over',
  youWon: 'You won!',
  youLost: 'You lost',
  teamWon: 'wins',
  drawn: 'Draw',
  closed: 'Table closed: too many passed-out deals',
  playAgain: 'Play again',
  backToLobby: 'Back to lobby',
  match: 'Match',
  timeout: 'time out',
  language: 'العربية',
  bidsWord: 'bids',
  passesWord: 'passes',
  namesTrump: 'names trump',
  botTookOver: 'a bot plays for',
  disconnectedWord: 'disconnected',
  reclaimedWord: 'is back',
  toWin: 'needs',
  error: 'Error',
  notFound: 'No such table',
  needFour: 'Four seats must be taken to start.',
  gameWords: '',  // accounts (accounts.ts)
  haveAccount: 'Have an account? Sign in with your password',
  password: 'Password',
  signInAccount: 'Sign in with password',
  register: 'Register',
  registerTitle: 'Register your name',
  registerWhy: 'Keep your name, rating and history with a password, and sign in from any device.',
  registerFirst: 'Register first',
  registeredTag: 'Registered',
  registeredTitle: 'Registered',
  registeredDone: 'Your name is yours now: sign in anywhere with it and your password.',
  newPassword: 'New password (8 or more characters)',
  confirmPassword: 'New password again',
  currentPassword: 'Current password',
  changePassword: 'Change password',
  changePasswordWhy: 'Your other devices will be signed out.',
  passwordChangedTitle: 'Password changed',
  passwordChangedDone: 'Your other devices were signed out.',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereConfirm: 'Sign out on every device, this one too?',
  guestSignOutTitle: 'Sign out as a guest?',
  guestSignOutWarning: 'You are playing as a guest: once you sign out, your name, rating and history cannot be used again, from here or anywhere. Register with a password to keep them.',
  signOutAnyway: 'Sign out anyway',
  cancel: 'Cancel',
  passwordLength: 'A password has 8 to 256 characters.',
  passwordMismatch: 'The two new passwords differ.',
};

export type Key = keyof typeof en;
/** Every text's key. */
export const KEYS = Object.keys(en) as Key[];

const ar: Record<Key, string> = {
  title: 'طرنيب',
  signInTitle: 'العب طرنيب',
  yourName: 'اسمك',
  signIn: 'دخول',
  connecting: 'جارٍ الاتصال…',
  reconnecting: 'انقطع الاتصال، جارٍ إعادة الاتصال…',
  lobby: 'الصالة',
  openTables: 'الطاولات المفتوحة',
  noTables: 'لا طاولات مفتوحة بعد. افتح طاولة!',
  finishedTables: 'مباريات انتهت',
  refresh: 'تحديث',
  nextPage: 'طاولات أخرى ←',
  prevPage: '→ الطاولات السابقة',
  createTable: 'طاولة جديدة',
  preset: 'القوانين',
  levantine: 'شامي',
  classic: 'كلاسيكي',
  target: 'اللعب حتى',
  timer: 'مؤقت الدور (ثانية، ٠ = بلا مؤقت)',
  privateTable: 'طاولة خاصة (برمز دخول)',
  botsFree: 'روبوتات في المقاعد الفارغة',
  casualTable: 'ودّية (بلا تصنيف، مع التلميحات)',
  rated: 'مصنّفة',
  casual: 'ودّية',
  create: 'افتح الطاولة',
  joinPrivate: 'ادخل طاولة خاصة',
  tableId: 'الطاولة',
  code: 'الرمز',
  join: 'اجلس',
  watch: 'تفرّج',
  sit: 'اجلس هنا',
  free: 'فارغ',
  addBot: 'أضف روبوت',
  removeBot: 'أزل الروبوت',
  start: 'ابدأ',
  leave: 'غادر',
  st_waiting: 'بانتظار لاعبين',
  st_playing: 'جارية',
  st_finished: 'انتهت',
  secs: 'ث',
  leaveConfirm: 'تغادر المباراة؟ سيلعب روبوت مكانك.',
  waitingPlayers: 'بانتظار أربعة لاعبين',
  shareCode: 'رمز الدخول',
  signOut: 'خروج',
  you: 'أنت',
  playOffline: 'العب دون اتصال',
  offlineHint: 'ضد ثلاثة لاعبين آليين، في هذه الصفحة: بلا خادم ولا شبكة.',
  offlineName: 'أنت',
  leaveOfflineConfirm: 'تغادر المباراة؟ ستنتهي هنا.',
  partner: 'شريكك',
  bot: 'روبوت',
  away: 'غائب',
  spectator: 'تتفرّج',
  spectators: 'متفرّج',
  dealer: 'الموزّع',
  dealerMark: 'م',
  auction: 'المزاد',
  pass: 'باس',
  bid: 'طلب',
  yourBid: 'دورك في الطلب',
  chooseTrump: 'اختر الحكم',
  suggested: 'مقترح',
  trump: 'الحكم',
  contract: 'الطلب',
  trick: 'اللفة',
  tricks: 'اللفات',
  ledBy: 'بدأ',
  lastTrick: 'اللفة السابقة',
  hint: 'تلميح',
  sounds: 'الأصوات',
  cardsLeft: 'أوراق',
  toAct: 'دوره',
  wonBy: 'أكلها',
  noLastTrick: 'لم تُلعب أي لفة بعد.',
  close: 'إغلاق',
  us: 'لنا',
  them: 'لهم',
  team0: 'الفريق أ',
  team1: 'الفريق ب',
  score: 'النتيجة',
  scoreSheet: 'ورقة النتائج',
  round: 'الجولة',
  yourTurn: 'دورك',
  waitingFor: 'بانتظار',
  roundSummary: 'ملخص الجولة',
  made: 'نجح',
  set: 'انكسر',
  points: 'النقاط',
  continue: 'متابعة',
  passedOut: 'الكل قال باس: توزيع جديد',
  matchOver: 'انتهت المباراة',
  youWon: 'فزتم!',
  youLost: 'خسرتم',
  teamWon: 'يفوز',
  drawn: 'تعادل',
  closed: 'أُغلقت الطاولة: توزيعات كثيرة بلا طلب',
  playAgain: 'العب مرة أخرى',
  backToLobby: 'العودة إلى الصالة',
  match: 'المباراة',
  timeout: 'انتهى الوقت',
  language: 'English',
  bidsWord: 'يطلب',
  passesWord: 'باس',
  namesTrump: 'يختار الحكم',
  botTookOver: 'روبوت يلعب عن',
  disconnectedWord: 'انقطع اتصاله',
  reclaimedWord: 'عاد',
  toWin: 'يحتاج',
  error: 'خطأ',
  notFound: 'لا توجد طاولة بهذا الرقم',
  needFour: 'يجب أن تكتمل المقاعد الأربعة للبدء.',
  gameWords: '',  // accounts (accounts.ts)
  haveAccount: 'لديك حساب؟ ادخل بكلمة المرور',
  password: 'كلمة المرور',
  signInAccount: 'دخول بكلمة المرور',
  register: 'تسجيل',
  registerTitle: 'سجّل اسمك',
  registerWhy: 'احتفظ باسمك وتقييمك وسجلّ مبارياتك بكلمة مرور، وادخل من أي جهاز.',
  registerFirst: 'سجّل أولًا',
  registeredTag: 'مسجّل',
  registeredTitle: 'تم التسجيل',
  registeredDone: 'صار الاسم لك: ادخل به وبكلمة المرور من أي مكان.',
  newPassword: 'كلمة المرور الجديدة (٨ أحرف أو أكثر)',
  confirmPassword: 'كلمة المرور الجديدة مرة أخرى',
  currentPassword: 'كلمة المرور الحالية',
  changePassword: 'تغيير كلمة المرور',
  changePasswordWhy: 'سيُسجَّل خروج أجهزتك الأخرى.',
  passwordChangedTitle: 'تغيّرت كلمة المرور',
  passwordChangedDone: 'سُجّل خروج أجهزتك الأخرى.',
  signOutEverywhere: 'خروج من كل الأجهزة',
  signOutEverywhereConfirm: 'الخروج من كل الأجهزة، وهذا منها؟',
  guestSignOutTitle: 'الخروج وأنت ضيف؟',
  guestSignOutWarning: 'أنت تلعب ضيفًا: بعد الخروج لن تستطيع استعمال اسمك وتقييمك وسجلّك مرة أخرى، من هنا أو من أي مكان. سجّل بكلمة مرور لتحتفظ بها.',
  signOutAnyway: 'اخرج على أي حال',
  cancel: 'إلغاء',
  passwordLength: 'كلمة المرور من ٨ إلى ٢٥٦ حرفاً.',
  passwordMismatch: 'كلمتا المرور الجديدتان مختلفتان.',
};

const SUIT_NAMES: Record<Lang, Record<Suit, string>> = {
  en: { S: 'Spades', H: 'Hearts', D: 'Diamonds', C: 'Clubs' },
  ar: { S: 'بستوني', H: 'كبة', D: 'ديناري', C: 'سباتي' },
};

const ERRORS: Record<Lang, Record<string, string>> = {
  en: {
    name_taken: 'That name is taken. Choose another one.',
    bad_name: 'Names are 1–24 letters, digits, spaces, _ - or .',
    unknown_token: 'Your session has ended. Sign in again.',
    no_such_table: 'No such table.',
    bad_code: 'Wrong join code.',
    bad_chat: 'That message cannot be sent (it needs a visible character; at most 200 characters, 4 accents on one, no control characters).',
    chat_rate_limited: 'Too many messages: wait a few seconds.',
    unknown_phrase: 'Unknown quick phrase.',
    seat_taken: 'That seat is taken.',
    table_playing: 'Seats cannot change during a match.',
    not_enough_players: 'Four seats must be taken to start.',
    bad_settings: 'Those table settings are not allowed.',
    too_many_tables: 'The server has too many tables right now.',
    too_many_waiting_tables: 'You already have a table waiting for players: start it or leave it first.',
    already_seated: 'You are seated at a table already: leave it first.',
    too_many_connections: 'Too many connections: close another tab first.',
    rate_limited: 'Slow down a little.',
    stale: 'The table moved on; try again.',
    engine_unavailable: 'The offline game could not be loaded.',
    // accounts (docs/protocol.md "Accounts")
    bad_credentials: 'Wrong name or password.',
    bad_password: 'A password has 8 to 256 characters.',
    too_many_attempts: 'Too many failed sign-ins. Try again later.',
    busy: 'The server is busy. Try again in a moment.',
    already_registered: 'This name is registered already.',
    not_registered: 'Register first.',
  },
  ar: {
    name_taken: 'هذا الاسم مأخوذ. اختر اسمًا آخر.',
    bad_name: 'الاسم من ١ إلى ٢٤ حرفًا أو رقمًا أو مسافة أو _ - .',
    unknown_token: 'انتهت جلستك. ادخل من جديد.',
    no_such_table: 'لا توجد طاولة بهذا الرقم.',
    bad_code: 'رمز الدخول خاطئ.',
    bad_chat: 'لا يمكن إرسال هذه الرسالة (تحتاج حرفاً ظاهراً؛ ٢٠٠ حرف على الأكثر، ٤ حركات على الحرف، بلا رموز تحكم).',
    chat_rate_limited: 'رسائل كثيرة: انتظر قليلاً.',
    unknown_phrase: 'عبارة غير معروفة.',
    seat_taken: 'المقعد مأخوذ.',
    table_playing: 'لا يمكن تغيير المقاعد أثناء المباراة.',
    not_enough_players: 'يجب أن تكتمل المقاعد الأربعة للبدء.',
    bad_settings: 'إعدادات الطاولة غير مسموحة.',
    too_many_tables: 'الخادم مشغول بطاولات كثيرة الآن.',
    too_many_waiting_tables: 'لديك طاولة تنتظر لاعبين: ابدأها أو غادرها أولًا.',
    already_seated: 'أنت جالس على طاولة: غادرها أولًا.',
    too_many_connections: 'اتصالات كثيرة: أغلق نافذة أخرى أولًا.',
    rate_limited: 'على مهلك قليلًا.',
    stale: 'تغيّرت الطاولة؛ حاول مرة أخرى.',
    engine_unavailable: 'تعذّر تحميل اللعب دون اتصال.',
    // accounts (docs/protocol.md "Accounts")
    bad_credentials: 'الاسم أو كلمة المرور خطأ.',
    bad_password: 'كلمة المرور من ٨ إلى ٢٥٦ حرفاً.',
    too_many_attempts: 'محاولات دخول فاشلة كثيرة. حاول لاحقًا.',
    busy: 'الخادم مشغول. حاول بعد قليل.',
    already_registered: 'هذا الاسم مسجّل من قبل.',
    not_registered: 'سجّل أولًا.',
  },
};

let current: Lang = 'en';

export function setLang(l: Lang): void {
  current = l;
}
export const lang = (): Lang => current;
export const dir = (l: Lang = current): 'rtl' | 'ltr' => (l === 'ar' ? 'rtl' : 'ltr');

export function t(k: Key, l: Lang = current): string {
  return (l === 'ar' ? ar : en)[k];
}

export function suitName(s: Suit, l: Lang = current): string {
  return SUIT_NAMES[l][s];
}

export function errorText(code: string, message: string | undefined, l: Lang = current): string {
  return ERRORS[l][code] ?? message ?? code;
}

const AR_DIGITS = '٠١٢٣٤٥٦٧٨٩';

/** A number as the language writes it: Eastern Arabic digits in Arabic. */
export function num(n: number | string, l: Lang = current): string {
  const s = String(n);
  if (l !== 'ar') return s;
  return s.replace(/[0-9]/g, (d) => AR_DIGITS[Number(d)]).replace(/^-/, '\u2212');
}

/** Text with any Eastern Arabic digits written as 0-9 (what a person types in Arabic). */
export function latinDigits(s: string): string {
  return s.replace(/[٠-٩]/g, (d) => String(AR_DIGITS.indexOf(d))).replace(/^\u2212/, '-');
}

/** A number typed in either digit system; NaN when it is not one. */
export const parseNum = (s: string): number => (s.trim() === '' ? NaN : Number(latinDigits(s.trim())));

/** A table's id as the language shows it: in Arabic its number alone, in Eastern digits ("t57" is
 * "٥٧"), so that the lobby uses one digit system. */
export function tableLabel(id: string, l: Lang = current): string {
  if (l !== 'ar') return id;
  return num(/^t\d+$/.test(id) ? id.slice(1) : id, l);
}

/** The table id that a typed table label stands for: "٥٧", "57" and "t57" are all "t57". */
export function tableIdOf(typed: string): string {
  const s = latinDigits(typed.trim());
  return /^\d+$/.test(s) ? `t${s}` : s;
}

/** The language to start in: a saved choice, else ?lang=, else the browser's. */
export function initialLang(saved: string | null, query: string | null, browser: string | undefined): Lang {
  for (const v of [query, saved]) if (v === 'ar' || v === 'en') return v;
  return browser && browser.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}
