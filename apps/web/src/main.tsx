import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startBootDownloads } from './app/boot.ts';
import { loadQueryRoot } from './app/routes.tsx';
import { initI18n } from './i18n/i18n.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Server state, the session and the signed-in texts start downloading beside the language.
const { signedIn } = startBootDownloads(window.location.pathname, { loadQueryRoot });

// Rendered once the language is loaded, so no untranslated key ever shows.
void initI18n({ signedIn }).then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
