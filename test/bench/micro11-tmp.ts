import { paintImage } from '@lootsmith/engine';
import { inflateSync } from 'node:zlib';
import { PerformanceObserver } from 'node:perf_hooks';
let gcs = 0, gcms = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) { gcs++; gcms += e.duration; } }).observe({ entryTypes: ['gc'] });
for (const side of [64, 768]) {
  const png = paintImage({ prompt: 'an iron sword, game item, fantasy', width: side, height: side });
  let off = 8; const chunks: any[] = [];
  while (off < png.length) { const len = png.readUInt32BE(off); chunks.push([png.toString('latin1', off + 4, off + 8), png.subarray(off + 8, off + 8 + len)]); off += 12 + len; }
  const idat = chunks.find(c => c[0] === 'IDAT')[1];
  const expected = inflateSync(idat).length;
  const n = side === 64 ? 50000 : 500;
  for (const [name, opts] of [['default', { maxOutputLength: expected + 1 }], ['chunkSize', { maxOutputLength: expected + 1, chunkSize: Math.max(64, expected + 1) }]] as const) {
    gcs = 0; gcms = 0;
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) { inflateSync(idat, opts); if (i % 100 === 0) await new Promise((r) => setImmediate(r)); }
    await new Promise((r) => setTimeout(r, 50));
    console.log(side, name.padEnd(10), (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'us; gcs', gcs, 'gc ms', gcms.toFixed(1));
  }
}
process.exit(0);
