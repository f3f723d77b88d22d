import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('app')!;
// The "Loading…" line the HTML shows until this script runs.
root.replaceChildren();
render(<App />, root);
