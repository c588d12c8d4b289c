// The plugin's one declaration file, standing alone: the protocol's types are written out as plain
// TypeScript from its zod schemas (no zod, no @lootsmith/protocol import) and rolled up with the plugin's.
import { rmSync, writeFileSync } from 'node:fs';
import * as protocol from '@lootsmith/protocol';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import type ts from 'typescript';
import type { ZodObject, ZodRecord, ZodType } from 'zod';
import {
  createAuxiliaryTypeStore,
  createTypeAlias,
  type OptionalTypeOverrideFunction,
  printNode,
  type ZodToTsOptions,
  zodToTs,
} from 'zod-to-ts';

const dist = new URL('../dist/', import.meta.url);
const declarations = new URL('types/', dist);
const protocolTypes = new URL('protocol.d.ts', declarations);

/**
 * Two shapes zod-to-ts writes as index signatures TypeScript rejects: records keyed by an enum become
 * `Record<K, V>` (`Partial<…>` for partial ones), and strict objects lose their `[x: string]: never`.
 */
const readable: OptionalTypeOverrideFunction = (schema, t, options) => {
  const convert = (inner: unknown) => zodToTs(inner as ZodType, options as ZodToTsOptions).node;
  const def = schema._zod.def as { type: string; catchall?: ZodType; partial?: boolean };
  if (def.type === 'record') {
    const record = schema as unknown as ZodRecord;
    const node = t.factory.createTypeReferenceNode('Record', [
      convert(record.keyType),
      convert(record.valueType),
    ]);
    return def.partial ? t.factory.createTypeReferenceNode('Partial', [node]) : node;
  }
  if (def.type === 'object' && def.catchall?._zod.def.type === 'never')
    return convert((schema as ZodObject).strip());
  return undefined;
};

/** Every schema the protocol exports, as `export type Name = …`, naming the others it contains. */
function plainProtocolTypes(): string {
  const schemas = Object.entries(protocol).filter(
    ([, value]) => value && typeof value === 'object' && '_zod' in value,
  ) as [string, ZodType][];
  return schemas
    .map(([name, schema]) => {
      const overrides = new Map(
        schemas
          .filter(([, other]) => other !== schema)
          .map(([otherName, other]) => [
            other,
            (t: typeof ts) => t.factory.createTypeReferenceNode(otherName),
          ]),
      );
      const { node } = zodToTs(schema, {
        auxiliaryTypeStore: createAuxiliaryTypeStore(),
        overrides,
        overrideFunction: readable,
      });
      return `export ${printNode(createTypeAlias(node, name))}`;
    })
    .join('\n');
}

writeFileSync(protocolTypes, `${plainProtocolTypes()}\n`);
const bundle = await rollup({
  input: new URL('index.d.ts', declarations).pathname,
  external: ['phaser'],
  plugins: [
    {
      name: 'protocol-types',
      resolveId: (id) => (id === '@lootsmith/protocol' ? protocolTypes.pathname : null),
    },
    dts({ respectExternal: true }),
  ],
});
await bundle.write({ file: new URL('lootsmith.d.ts', dist).pathname, format: 'es' });
rmSync(declarations, { recursive: true });
