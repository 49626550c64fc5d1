/**
 * TypeBox's builder and value functions, as this package's bundle carries them
 * (scripts/bundle-entry.mjs --inline typebox). The server imports them from
 * here: importing `typebox` itself loads its ~680 ES module files, ~0.35 s of
 * CPU in every process that loads the app (the server, each `sledge --local`
 * command, each test file).
 */
export { default as Type } from 'typebox';
export { default as Value } from 'typebox/value';
