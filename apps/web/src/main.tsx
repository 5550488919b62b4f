import './index.css';
import { pagePath, publicPages } from '@dukkan/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadQueryRoot } from './app/routes.tsx';
import { initI18n } from './i18n/i18n.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Any page but the login page needs server state and the session check: their chunk downloads
// beside the language instead of after the first render.
if (pagePath(window.location.pathname) !== publicPages.login) loadQueryRoot().catch(() => undefined);

// Rendered once the language is loaded, so no untranslated key ever shows.
void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
