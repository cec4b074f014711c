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
