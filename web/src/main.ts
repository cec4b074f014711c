import './style.css';
import { App } from './app';
import { mount } from './view';
import { Screens } from './replay';

const root = document.getElementById('app')!;
// History and replays (#/history, #/replay/…) draw beside the game, into their own element
const screenEl = document.createElement('div');
screenEl.id = 'screens';
root.after(screenEl);
let render: (s: App['state']) => void = () => {};
const app = new App((s) => render(s));
const screens = new Screens(screenEl, root, app);
const renderGame = mount(root, app);
render = (s) => {
  renderGame(s);
  screens.render();
};
app.start();
// for debugging in the browser console
(window as unknown as { tarneeb: App }).tarneeb = app;
