import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './workloads/index.js';
import { App } from './App.js';
import { WorkbenchProvider } from './state/workbench.js';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WorkbenchProvider>
      <App />
    </WorkbenchProvider>
  </StrictMode>,
);
