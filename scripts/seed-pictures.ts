/**
 * Product pictures for the demo store, drawn at seed time (no network): a flat illustration of the
 * product's kind in its colour on a soft backdrop, as SVG, rendered to WebP by sharp (libvips).
 */
import type { Shape } from './seed-products.js';

/** Drawn on an 800 x 800 canvas, rendered at the 600 x 600 a product page shows. */
const SIZE = 800;
const OUTPUT = 600;

/** The outline of each kind of product on an 800 x 800 canvas, filled with the colour; details drawn darker on top. */
const SHAPES: Record<Shape, (fill: string, detail: string) => string> = {
  tee: (fill, detail) => `
    <path d="M280 190 L350 165 Q400 205 450 165 L520 190 L630 275 L575 360 L535 335 L535 630 L265 630 L265 335 L225 360 L170 275 Z" fill="${fill}"/>
    <path d="M350 165 Q400 230 450 165" fill="none" stroke="${detail}" stroke-width="12"/>
    <path d="M265 335 L265 300 M535 335 L535 300" stroke="${detail}" stroke-width="6" opacity=".5"/>`,
  hoodie: (fill, detail) => `
    <path d="M300 235 Q400 90 500 235 Q400 290 300 235 Z" fill="${detail}"/>
    <path d="M290 240 L510 240 L600 300 L640 590 L580 600 L545 380 L545 640 L255 640 L255 380 L220 600 L160 590 L200 300 Z" fill="${fill}"/>
    <path d="M300 240 Q400 330 500 240" fill="none" stroke="${detail}" stroke-width="14"/>
    <path d="M385 290 L380 380 M415 290 L420 380" stroke="${detail}" stroke-width="6"/>
    <path d="M320 500 L480 500 L500 585 L300 585 Z" fill="none" stroke="${detail}" stroke-width="8"/>`,
  runner: (fill, detail) => `
    <path d="M130 520 L150 410 Q170 340 250 350 L360 395 Q470 420 560 445 Q660 470 670 520 Z" fill="${fill}"/>
    <path d="M120 520 L680 520 Q700 520 695 550 L688 568 L140 568 Q112 568 112 545 Z" fill="#f4f1ea" stroke="${detail}" stroke-width="6"/>
    <path d="M260 430 Q400 470 560 470" fill="none" stroke="#f4f1ea" stroke-width="16" opacity=".85"/>
    <path d="M300 380 L330 360 M330 395 L360 375 M360 408 L390 388" stroke="#f4f1ea" stroke-width="8" stroke-linecap="round"/>`,
  boot: (fill, detail) => `
    <path d="M250 170 L430 170 L445 420 Q560 430 620 470 Q665 500 660 560 L250 560 Z" fill="${fill}"/>
    <path d="M240 560 L670 560 L670 600 L240 600 Z" fill="${detail}"/>
    <path d="M430 200 L380 215 M432 250 L382 265 M435 300 L385 315 M438 350 L388 365" stroke="#efe6d4" stroke-width="8" stroke-linecap="round"/>
    <path d="M250 200 L430 200" stroke="${detail}" stroke-width="10" opacity=".5"/>`,
  bag: (fill, detail) => `
    <path d="M300 330 Q300 190 400 190 Q500 190 500 330" fill="none" stroke="${detail}" stroke-width="22"/>
    <path d="M210 330 L590 330 L620 630 L180 630 Z" fill="${fill}"/>
    <path d="M300 330 L300 380 M500 330 L500 380" stroke="${detail}" stroke-width="22" stroke-linecap="round"/>
    <path d="M250 460 L550 460" stroke="${detail}" stroke-width="8" opacity=".45"/>`,
  cap: (fill, detail) => `
    <path d="M210 470 Q210 270 400 270 Q590 270 590 470 Z" fill="${fill}"/>
    <path d="M210 470 Q420 440 690 500 Q670 545 560 540 Q400 520 210 510 Z" fill="${detail}"/>
    <circle cx="400" cy="270" r="14" fill="${detail}"/>
    <path d="M400 285 L400 465 M305 300 Q330 380 330 465 M495 300 Q470 380 470 465" stroke="${detail}" stroke-width="5" opacity=".45" fill="none"/>`,
};

/** A lighter and a darker shade of a #rrggbb colour, for the backdrop and the details. */
function shade(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (value >> shift) & 0xff;
    const mixed = amount >= 0 ? c + (255 - c) * amount : c * (1 + amount);
    return Math.round(Math.min(255, Math.max(0, mixed)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

export function pictureSvg(shape: Shape, colour: string): string {
  const light = colour.toLowerCase() === '#ece4d2' || colour.toLowerCase() === '#c8b18a';
  const backdrop = light ? '#dfe6e3' : shade(colour, 0.82);
  const backdrop2 = light ? '#c9d4d0' : shade(colour, 0.68);
  const detail = shade(colour, light ? -0.35 : -0.4);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OUTPUT}" height="${OUTPUT}" viewBox="0 0 ${SIZE} ${SIZE}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${backdrop}"/><stop offset="1" stop-color="${backdrop2}"/></linearGradient></defs>
  <rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
  <ellipse cx="400" cy="665" rx="270" ry="26" fill="#000" opacity=".10"/>
  ${SHAPES[shape](colour, detail)}
</svg>`;
}

/**
 * Why the pictures cannot be drawn here, or null when they can: sharp loads a native binary, which an
 * install may lack (a platform without one, a copy of node_modules from another machine). The seed
 * asks before it makes anything.
 */
export async function picturesUnavailable(): Promise<string | null> {
  try {
    await import('sharp');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The picture as a WebP the size a product page shows it (600 x 600); effort 2 takes a third of the default's time for 7% more bytes. */
export async function pictureWebp(shape: Shape, colour: string): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(pictureSvg(shape, colour)))
    .webp({ quality: 82, effort: 2 })
    .toBuffer();
}
