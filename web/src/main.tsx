// Mantine's global styles (in its cascade layer); each component's own CSS comes with it (web/vite.config.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
// The theme's own variables, written at build (src/theme-css.ts; App.tsx turns Mantine's runtime ones off).
import 'virtual:theme-variables.css';
import './focus.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { PLATFORM_TITLE } from './brand';

document.title = PLATFORM_TITLE;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
