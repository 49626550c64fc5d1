/** Types of native-notes.mjs (a plain script build-native.mjs imports before anything is built). */
export declare const NATIVE_LOOPS: Record<'pgvu' | 'myvu', { engines: string; apt: string; others: string; cost: string }>;
export declare function loopWarning(loop: 'pgvu' | 'myvu', why: string, onPurpose?: boolean): string;
