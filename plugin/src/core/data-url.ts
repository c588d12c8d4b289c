/** PNG bytes as a data URL, which `textures.addBase64` and IndexedDB both take as a plain string. */
export function pngDataUrl(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: spreading a whole icon into one call overflows the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(binary)}`;
}

/** The service answers base64 without a prefix (docs/SPEC.md 2.4); browsers sniff the real format. */
export const base64DataUrl = (base64: string) =>
  base64.startsWith('data:') ? base64 : `data:image/png;base64,${base64}`;
