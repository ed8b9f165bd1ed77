import { inflateSync } from 'node:zlib';

/**
 * How many distinct colours a PNG holds (8-bit greyscale, RGB or RGBA, not interlaced: what
 * Chromium's screenshots are), sampling every `step`-th pixel. Dependency-free, for checking that a
 * screenshot is not blank: a blank page has one or two colours, a drawn graph dozens.
 */
export function distinctColours(png: Buffer, step = 7): number {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data.readUInt8(8);
      const colourType = data.readUInt8(9);
      const channelsByType: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
      channels = channelsByType[colourType] ?? 0;
      if (depth !== 8 || channels === 0 || data.readUInt8(12) !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colourType}, interlaced ${data.readUInt8(12)})`);
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  let previous = Buffer.alloc(stride);
  const colours = new Set<string>();
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    // Undo the row filter (PNG spec, section 9): each byte is predicted from its left, up and up-left neighbours.
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? (line[i - channels] ?? 0) : 0;
      const up = previous[i] ?? 0;
      const upLeft = i >= channels ? (previous[i - channels] ?? 0) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      line[i] = ((line[i] ?? 0) + predicted) & 0xff;
    }
    if (y % step === 0) for (let x = 0; x < width; x += step) colours.add(line.subarray(x * channels, x * channels + channels).toString('hex'));
    previous = line;
  }
  return colours.size;
}
