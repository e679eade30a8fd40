import { render } from 'preact';
import './app.css';

function App() {
  return <h1>timetrack</h1>;
}

const root = document.getElementById('app');
if (root) render(<App />, root);
