/// <reference types="vite/client" />
import './style.css';
import './social.css';
import './bot_levels.css';
import './quick.css';
import { App } from './app';
import { mount } from './view';
import { Screens } from './replay';
import { ChatPanel } from './chat';
import { SocialScreens } from './profiles';
import { TournamentScreens } from './tournament_screen';
import { startUpdates } from './updates';
import { RulesScreen } from './rules';
import { listenForGesture } from './sounds';

const root = document.getElementById('app')!;
// sounds play only after the person's first gesture (the browser's autoplay rules: sounds.ts)
listenForGesture(document);
// History and replays (#/history, #/replay/…) draw beside the game, into their own element
const screenEl = document.createElement('div');
screenEl.id = 'screens';
root.after(screenEl);
// Tournaments (#/tournaments, #/tournaments/{id}) in their own element too
const tournamentEl = document.createElement('div');
tournamentEl.id = 'tournaments';
screenEl.after(tournamentEl);
let render: (s: App['state']) => void = () => {};
const app = new App((s) => render(s));
const screens = new Screens(screenEl, root, app);
// The leaderboard and profiles (#/leaderboard, #/player/…), and the table chat (issue 15)
const socialEl = document.createElement('div');
socialEl.id = 'social';
screenEl.after(socialEl);
const social = new SocialScreens(socialEl, root, app);
const chatEl = document.createElement('section');
socialEl.after(chatEl);
const chat = new ChatPanel(chatEl, app);
app.social = (m) => chat.onMessage(m);
const tournaments = new TournamentScreens(tournamentEl, root, app);
// The rules (#/rules, #/rules/{preset}): a dialog over whatever is shown (issue 28)
const rulesEl = document.createElement('div');
rulesEl.id = 'rules';
chatEl.after(rulesEl);
const rules = new RulesScreen(rulesEl, app);
const renderGame = mount(root, app);
render = (s) => {
  renderGame(s);
  screens.render();
  social.render();
  chat.render();
  tournaments.render();
  rules.render();
};
app.start();
// for debugging in the browser console
(window as unknown as { tarneeb: App }).tarneeb = app;

// The service worker serves the page's build from its cache (sw/sw.js): the page then loads and
// plays offline, and keeps its build until the person reloads into a new one (updates.ts). Only
// in a build (dist/sw.js exists there), and only where the browser allows it.
if (import.meta.env.PROD) app.updates = startUpdates(() => app.newVersionReady());
