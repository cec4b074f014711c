// The words of the page's status lines (issue 28): no network, a new version of the page, a page
// older than the server, one's own account name at the guest sign-in, English and Arabic (same conventions as
// i18n.ts; the player's name isolated by the caller).
import { lang, type Lang } from './i18n';

const en = {
  offlineBar: 'You are offline. Play offline meanwhile: the game reconnects when the network is back.',
  updateReady: 'A new version of the game is ready.',
  updateReload: 'Reload',
  updateLater: 'Later',
  tooOld: 'This page is older than the server: reload it.',
  ownAccount: '{name} is a registered account: sign in with its password below.',
};

export type StatusKey = keyof typeof en;
/** Every status text's key. */
export const STATUS_KEYS = Object.keys(en) as StatusKey[];

const ar: Record<StatusKey, string> = {
  offlineBar: 'أنت غير متصل بالشبكة. العب دون اتصال في هذه الأثناء: يعود الاتصال بالخادم عند عودة الشبكة.',
  updateReady: 'نسخة جديدة من اللعبة جاهزة.',
  updateReload: 'حدّث الصفحة',
  updateLater: 'لاحقًا',
  tooOld: 'هذه الصفحة أقدم من الخادم: حدّثها.',
  ownAccount: '{name} حساب مسجّل: ادخل بكلمة المرور في الأسفل.',
};

const WORDS: Record<Lang, Record<StatusKey, string>> = { en, ar };

/** A status text; `{name}` put in as given (HTML the caller made safe). */
export function statusText(key: StatusKey, vars: { name?: string } = {}, l: Lang = lang()): string {
  return WORDS[l][key].replace('{name}', vars.name ?? '');
}
