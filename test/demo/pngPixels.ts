import { inflateSync } from 'node:zlib';

/** A decoded screenshot: its size and the colour of any pixel. */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  /** `[r, g, b, a]` of the pixel at (`x`, `y`). */
  at(x: number, y: number): [number, number, number, number];
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** The Paeth predictor of the PNG filters. */
function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [
    Math.abs(estimate - left),
    Math.abs(estimate - up),
    Math.abs(estimate - upLeft),
  ];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

/**
 * Decodes the PNGs Chromium's screenshots are (8-bit RGB or RGBA, not interlaced), so a test can
 * read the colours the browser painted rather than the DOM it was told to paint.
 */
export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6))
        throw new Error(
          `unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`,
        );
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const image = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? image[y * stride + x - channels]! : 0;
      const up = y > 0 ? image[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? image[(y - 1) * stride + x - channels]! : 0;
      const predicted =
        filter === 0
          ? 0
          : filter === 1
            ? left
            : filter === 2
              ? up
              : filter === 3
                ? Math.floor((left + up) / 2)
                : paeth(left, up, upLeft);
      image[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    at: (x, y) => {
      const start = y * stride + x * channels;
      return [
        image[start]!,
        image[start + 1]!,
        image[start + 2]!,
        channels === 4 ? image[start + 3]! : 255,
      ];
    },
  };
}
