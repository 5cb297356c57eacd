/**
 * The first videos page of a playlist is asked for with a continuation token that the client
 * builds, as NewPipe does since YouTube's masked header response (`$fields=sidebar,header,
 * microformat,alerts`) carries none: a browse continuation (protobuf field 80226972) holding the
 * browse id `VL<id>`, the fixed params `CADCBgIIAA==` (URL-encoded, as NewPipe sends them) and the
 * playlist id. The recorded 2026 request is byte-identical to what this builds.
 */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

function lengthDelimited(field: number, payload: number[]): number[] {
  return [...varint(field * 8 + 2), ...varint(payload.length), ...payload];
}

const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];

export function playlistFirstPageToken(playlistId: string): string {
  const inner = [
    ...lengthDelimited(2, utf8(`VL${playlistId}`)),
    ...lengthDelimited(3, utf8('CADCBgIIAA%3D%3D')),
    ...lengthDelimited(35, utf8(playlistId)),
  ];
  return Buffer.from(lengthDelimited(80226972, inner)).toString('base64');
}
