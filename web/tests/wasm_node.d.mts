import type { LoadOptions } from '../src/engine';
export function nodeEngineOptions(): LoadOptions;
export function recordNames(): string[];
export function readRecord(name: string): { text: string; expected: Record<string, unknown> };
