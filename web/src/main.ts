/// <reference types="vite/client" />
import './style.css';
import { App } from './app';
import { mount } from './view';

const root = document.getElementById('app')!;
let render: (s: App['state']) => void = () => {};
const app = new App((s) => render(s));
render = mount(root, app);
app.start();
// for debugging in the browser console
(window as unknown as { tarneeb: App }).tarneeb = app;

// The service worker caches the app and the offline engine (sw/sw.js): the page then loads and
// plays offline. Only in a build (dist/sw.js exists there), and only where the browser allows it.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
