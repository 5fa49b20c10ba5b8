/**
 * The demo store's catalog as a shopper reads it: categories with descriptions, products with
 * names and descriptions that read naturally, and their variants (sizes and colours). Pure data,
 * deterministic: every seed makes the same store.
 */
export type Shape = 'tee' | 'hoodie' | 'runner' | 'boot' | 'bag' | 'cap';

export interface DemoCategory {
  name: string;
  description: string;
  children: { name: string; shape: Shape; description: string }[];
}

export const CATEGORIES: DemoCategory[] = [
  {
    name: 'Apparel',
    description: 'Tees, hoodies and layers in organic cotton, merino and recycled fleece, cut for every day.',
    children: [
      { name: 'T-Shirts', shape: 'tee', description: 'Soft, sturdy tees that keep their shape wash after wash.' },
      { name: 'Hoodies', shape: 'hoodie', description: 'Heavyweight pullovers and zip-ups for cool mornings and long evenings.' },
    ],
  },
  {
    name: 'Footwear',
    description: 'Shoes and boots for the road, the trail and the office, made to be worn in, not worn out.',
    children: [
      { name: 'Running', shape: 'runner', description: 'Cushioned trainers and light racers for daily miles and race day.' },
      { name: 'Boots', shape: 'boot', description: 'Leather and suede boots with resoleable soles for years of wear.' },
    ],
  },
  {
    name: 'Accessories',
    description: 'Bags and hats that finish an outfit and carry what you need.',
    children: [
      { name: 'Bags', shape: 'bag', description: 'Totes, packs and duffels in waxed canvas, leather and recycled nylon.' },
      { name: 'Hats', shape: 'cap', description: 'Caps, beanies and sun hats for every season.' },
    ],
  },
];

/** Product names per shape; a product's index picks one, so names never repeat. */
export const NAMES: Record<Shape, string[]> = {
  tee: [
    'Everyday Cotton Tee',
    'Heavyweight Pocket Tee',
    'Organic Crew Neck Tee',
    'Striped Breton Tee',
    'Merino Travel Tee',
    'Vintage Wash Tee',
    'Relaxed Linen Tee',
    'Performance Running Tee',
    'Long Sleeve Henley',
  ],
  hoodie: [
    'Classic Pullover Hoodie',
    'Zip-Up Fleece Hoodie',
    'Heavyweight Loopback Hoodie',
    'Lightweight Trail Hoodie',
    'Sherpa-Lined Hoodie',
    'Recycled Fleece Hoodie',
    'Quarter-Zip Sweatshirt',
    'Garment-Dyed Hoodie',
    'Waffle-Knit Hoodie',
  ],
  runner: [
    'Tempo Road Runner',
    'Cloudstep Trainer',
    'Trailblazer Waterproof',
    'Pace Racer',
    'Daily Miles Runner',
    'Summit Trail Shoe',
    'Featherlight Racer',
    'Stride Cushion Trainer',
    'Recovery Slip-On',
  ],
  boot: [
    'Chelsea Leather Boot',
    'Rugged Hiking Boot',
    'Waxed Canvas Work Boot',
    'Desert Suede Boot',
    'Shearling Winter Boot',
    'Moc-Toe Work Boot',
    'Lace-Up Field Boot',
    'Waterproof Trail Boot',
    'Heritage Service Boot',
  ],
  bag: [
    'Canvas Market Tote',
    'Everyday Backpack 20L',
    'Roll-Top Commuter Pack',
    'Leather Crossbody Bag',
    'Weekender Duffel',
    'Packable Day Bag',
    'Laptop Messenger',
    'Sling Hip Pack',
    'Waxed Canvas Briefcase',
  ],
  cap: [
    'Washed Cotton Cap',
    'Merino Rib Beanie',
    'Fisherman Wool Beanie',
    'Wide-Brim Sun Hat',
    'Mesh Trucker Cap',
    'Waxed Bucket Hat',
    'Five-Panel Camp Cap',
    'Cable-Knit Beanie',
    'Corduroy Dad Cap',
  ],
};

/** Opening sentence of each shape's descriptions (what it is), then what it is made of, then how to care for it. */
const OPENINGS: Record<Shape, string[]> = {
  tee: [
    'A tee you will reach for first: soft from the first wear and cut a little longer so it stays tucked.',
    'Built like the work shirts of the fifties, with a roomy fit, a sturdy rib collar and a chest pocket.',
    'A clean crew neck with a modern fit: not too slim, not too boxy.',
  ],
  hoodie: [
    'The hoodie for cool mornings and long evenings, with a lined hood and a roomy kangaroo pocket.',
    'A full-zip hoodie with ribbed cuffs and hem that keep their shape, and deep pockets for cold hands.',
    'Heavy enough to wear as a jacket in spring, soft enough to sleep in.',
  ],
  runner: [
    'A neutral trainer with plenty of cushioning for easy days and long runs.',
    'Light and quick, with a rocker sole that rolls you forward mile after mile.',
    'Grippy lugs and a protective toe cap for rough trails, light enough for the road on the way there.',
  ],
  boot: [
    'A classic boot that looks better every year, built on a Goodyear-welted sole that can be replaced.',
    'Made for long days on your feet, with a padded collar and a cushioned footbed.',
    'A go-anywhere boot with a lugged sole and a waterproof lining, smart enough for town.',
  ],
  bag: [
    'Carries a laptop, a lunch and a jacket, with a padded sleeve and a zipped pocket for keys.',
    'A roomy everyday bag with sturdy handles and a shoulder strap that tucks away.',
    'Packs flat when empty and takes a weekend away when full.',
  ],
  cap: [
    'A six-panel cap with a curved brim and an adjustable strap that fits almost everyone.',
    'A warm, stretchy beanie that stays put on windy days, without the itch.',
    'A packable hat for sunny days, with a brim wide enough to shade your neck.',
  ],
};

const MATERIALS: Record<Shape, string[]> = {
  tee: ['Made from 100% organic cotton jersey, garment-washed for softness.', 'Knitted from merino wool that breathes and resists odour.'],
  hoodie: ['Made from heavyweight loopback cotton (420 g/m²).', 'Made from fleece spun from recycled bottles, brushed inside.'],
  runner: ['Engineered mesh upper, foam midsole and a rubber outsole.', 'Recycled knit upper with a supportive heel counter.'],
  boot: ['Full-grain leather upper with a leather lining.', 'Oiled suede upper on a natural crepe sole.'],
  bag: ['Waxed cotton canvas with vegetable-tanned leather trims.', 'Recycled ripstop nylon with a water-resistant coating.'],
  cap: ['Washed cotton twill with a cotton sweatband.', 'Soft merino wool, knitted in Scotland.'],
};

const CARE: Record<Shape, string> = {
  tee: 'Machine wash cold; tumble dry low.',
  hoodie: 'Machine wash cold inside out; dry flat.',
  runner: 'Wipe clean with a damp cloth; air dry away from heat.',
  boot: 'Brush off dirt and condition the leather now and then.',
  bag: 'Spot clean; re-wax the canvas once a year.',
  cap: 'Hand wash cold and reshape while damp.',
};

export function describeProduct(shape: Shape, n: number): string {
  return [OPENINGS[shape][n % OPENINGS[shape].length], MATERIALS[shape][n % MATERIALS[shape].length], CARE[shape]].join(' ');
}

/** Colours with the hex the product pictures are drawn in. */
export const COLOURS: Record<string, string> = {
  Black: '#2b2b2d',
  Navy: '#26385e',
  Sand: '#c8b18a',
  Olive: '#5f6b3c',
  Forest: '#2f5d46',
  Rust: '#a4522b',
  Stone: '#9b968b',
  Ivory: '#ece4d2',
  Charcoal: '#43464b',
  Sky: '#7ea6c8',
  Berry: '#7c3050',
  Tan: '#b07c4f',
};
const COLOUR_NAMES = Object.keys(COLOURS);

const SIZES: Record<Shape, string[]> = {
  tee: ['S', 'M', 'L', 'XL'],
  hoodie: ['S', 'M', 'L', 'XL'],
  runner: ['40', '41', '42', '43', '44'],
  boot: ['40', '41', '42', '43', '44'],
  bag: [],
  cap: ['S/M', 'L/XL'],
};

export interface DemoVariant {
  options: Record<string, string>;
  name: string;
  /** Relative to the product's base price, in whole units. */
  priceStep: number;
}

/** Two colours a product (one for bags, which come in three), times its sizes. */
export function variantsOf(shape: Shape, n: number): DemoVariant[] {
  const colours = shape === 'bag' ? [0, 1, 2] : [0, 1];
  const picked = colours.map((k) => COLOUR_NAMES[(n * 5 + k * 3) % COLOUR_NAMES.length]!);
  const sizes = SIZES[shape];
  if (sizes.length === 0) return picked.map((colour) => ({ options: { colour }, name: colour, priceStep: 0 }));
  return picked.flatMap((colour) =>
    sizes.map((size, i) => ({
      options: { size, colour },
      name: `${size} / ${colour}`,
      priceStep: shape === 'tee' || shape === 'hoodie' ? (i >= 3 ? 2 : 0) : 0,
    })),
  );
}

/** Base prices by shape, in whole units (the variants add their step and .00 or .99). */
export const BASE_PRICE: Record<Shape, [number, number]> = {
  tee: [24, 48],
  hoodie: [59, 98],
  runner: [89, 160],
  boot: [139, 260],
  bag: [45, 220],
  cap: [22, 45],
};

export const BRANDS = ['Northwind', 'Fjellstad', 'Harbour & Co', 'Ridgeline', 'Oakmoss'];
