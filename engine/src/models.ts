/** Model ids served by the engine itself; a key's text backend may add its own. */
export const WRITER_MODEL = 'lootsmith-writer-1';
export const PAINTER_MODEL = 'lootsmith-painter-1';
