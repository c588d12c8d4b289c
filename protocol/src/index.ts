export * from './api.ts';
export * from './equipment.ts';
export * from './game.ts';
export * from './generation.ts';
export * from './items.ts';
export * from './json-schema.ts';
export * from './model-answers.ts';
export * from './settings.ts';
