import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'sledge.theme';
const listeners = new Set<() => void>();

export function currentTheme(): Theme {
  return document.documentElement.dataset['theme'] === 'dark' ? 'dark' : 'light';
}

/** Switch and remember the theme (index.html applies it before the first paint). */
export function setTheme(t: Theme): void {
  document.documentElement.dataset['theme'] = t;
  try {
    localStorage.setItem(KEY, t);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  listeners.forEach((l) => l());
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    currentTheme,
  );
}
