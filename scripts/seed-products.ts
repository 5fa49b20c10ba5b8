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

/**
 * Each product's description: what it is and what it is made of (written for its name, so a beanie is
 * never described as a sun hat), then how to care for it (by shape).
 */
const ABOUT: Record<string, string> = {
  'Everyday Cotton Tee':
    'A tee you will reach for first: soft from the first wear and cut a little longer so it stays tucked. Made from 100% organic cotton jersey, garment-washed for softness.',
  'Heavyweight Pocket Tee':
    'Built like the work shirts of the fifties, with a roomy fit, a sturdy rib collar and a chest pocket. Knitted from dense 240 g/m² cotton that softens with every wash.',
  'Organic Crew Neck Tee':
    'A clean crew neck with a modern fit: not too slim, not too boxy. Made from certified organic cotton, grown without synthetic pesticides.',
  'Striped Breton Tee':
    'The sailor stripe, with a boat neck and three-quarter sleeves as the fishermen of Brittany wore it. Tightly knitted cotton that holds its shape.',
  'Merino Travel Tee':
    'One tee for a week away: it breathes on hot days, keeps you warm on cool ones and resists odour between washes. Knitted from fine 150 g/m² merino wool.',
  'Vintage Wash Tee':
    'Washed with stones before it reaches you, so it feels like an old favourite from the first day. Made from ring-spun cotton with a slightly faded colour.',
  'Relaxed Linen Tee':
    'A loose, airy tee for the hottest days, with a dropped shoulder and a straight hem. Made from washed European linen that gets softer with wear.',
  'Performance Running Tee':
    'A light tee that wicks sweat and dries fast, with flat seams that never rub on long runs. Made from recycled polyester with a reflective logo.',
  'Long Sleeve Henley':
    'A three-button henley with long sleeves, for layering or wearing alone on mild days. Made from a soft waffle-knit cotton.',
  'Classic Pullover Hoodie':
    'The hoodie for cool mornings and long evenings, with a lined hood and a roomy kangaroo pocket. Made from heavyweight loopback cotton (420 g/m²).',
  'Zip-Up Fleece Hoodie':
    'A full-zip hoodie with ribbed cuffs and hem that keep their shape, and deep pockets for cold hands. Made from fleece spun from recycled bottles, brushed inside.',
  'Heavyweight Loopback Hoodie':
    'Heavy enough to wear as a jacket in spring, soft enough to sleep in. Made from 480 g/m² loopback cotton, knitted slowly on vintage machines.',
  'Lightweight Trail Hoodie':
    'A thin, quick-drying hoodie for cool starts on the trail, with a snug hood that fits under a cap. Made from a light grid fleece that packs into its own pocket.',
  'Sherpa-Lined Hoodie':
    'A zip hoodie lined with deep sherpa pile in the body and hood, for the coldest days outdoors. Cotton outside, recycled polyester pile inside.',
  'Recycled Fleece Hoodie':
    'A pullover in soft brushed fleece with a roomy hood and a pouch pocket. Made entirely from fleece spun from recycled bottles.',
  'Quarter-Zip Sweatshirt':
    'A neat quarter-zip with a stand collar, smart enough for the office and warm enough for the walk there. Made from midweight cotton fleece.',
  'Garment-Dyed Hoodie':
    'Dyed after it is sewn, so every seam takes the colour a little differently and no two are quite alike. Made from midweight cotton fleece.',
  'Waffle-Knit Hoodie':
    'A light, textured hoodie that traps warm air in its waffle knit without the bulk. Made from a cotton and recycled polyester blend.',
  'Tempo Road Runner':
    'A neutral trainer with plenty of cushioning for easy days and long runs on the road. Engineered mesh upper, foam midsole and a rubber outsole.',
  'Cloudstep Trainer':
    'Soft, springy cushioning that takes the sting out of hard pavements, for daily runs and long walks. Recycled knit upper with a supportive heel counter.',
  'Trailblazer Waterproof':
    'Grippy lugs, a protective toe cap and a waterproof membrane for wet trails. Mesh upper over the membrane, and a rubber outsole with 5 mm lugs.',
  'Pace Racer':
    'Light and quick, with a rocker sole that rolls you forward mile after mile on race day. A thin mesh upper on a responsive foam midsole.',
  'Daily Miles Runner':
    'A dependable trainer for every day of the week, with a roomy toe box and a durable outsole. Engineered mesh upper and a dual-density foam midsole.',
  'Summit Trail Shoe':
    'Grippy lugs and a rock plate for steep, rough trails, light enough for the road on the way there. Abrasion-resistant mesh upper and a sticky rubber outsole.',
  'Featherlight Racer':
    'Our lightest shoe, at 190 g, built for fast 5Ks and track sessions. A single-layer mesh upper on a thin, lively foam midsole.',
  'Stride Cushion Trainer':
    'Maximum cushioning for long, slow miles and recovery days. Recycled knit upper with a padded collar and a thick foam midsole.',
  'Recovery Slip-On': 'A soft slip-on to wear after a long run, or around the house. A stretch knit upper on a thick, forgiving foam sole.',
  'Chelsea Leather Boot':
    'A classic Chelsea boot that looks better every year, with elastic sides and a pull tab, built on a Goodyear-welted sole that can be replaced. Full-grain leather upper with a leather lining.',
  'Rugged Hiking Boot':
    'Made for long days in the hills, with a padded collar, a cushioned footbed and a lugged sole. Full-grain leather upper with a waterproof lining.',
  'Waxed Canvas Work Boot':
    'A light work boot in waxed canvas with leather reinforcements at the toe and heel. Waxed cotton canvas upper on a cushioned rubber sole.',
  'Desert Suede Boot':
    'The desert boot: two eyelets, an ankle height and a soft sole that is easy on the feet from the first day. Oiled suede upper on a natural crepe sole.',
  'Shearling Winter Boot':
    'Warm to well below freezing, with a shearling lining and a grippy winter sole. Water-resistant suede upper lined with genuine shearling.',
  'Moc-Toe Work Boot':
    'The moc-toe work boot, with its stitched toe and a wedge sole that is kind on hard floors. Full-grain leather upper, Goodyear-welted and resoleable.',
  'Lace-Up Field Boot':
    'A tall lace-up boot for muddy fields and city streets alike, with a speed-hook top. Full-grain leather upper with a leather lining.',
  'Waterproof Trail Boot':
    'A go-anywhere boot with a lugged sole and a waterproof lining, smart enough for town. Nubuck upper over a waterproof membrane.',
  'Heritage Service Boot':
    'Modelled on the service boots of the forties, with a rounded toe and a stacked leather heel. Full-grain leather upper, Goodyear-welted and resoleable.',
  'Canvas Market Tote':
    'A roomy everyday tote with sturdy handles and a shoulder strap that tucks away. Waxed cotton canvas with vegetable-tanned leather trims.',
  'Everyday Backpack 20L':
    'Carries a laptop, a lunch and a jacket, with a padded sleeve and a zipped pocket for keys. Recycled ripstop nylon with a water-resistant coating.',
  'Roll-Top Commuter Pack':
    'A roll-top pack that keeps the rain out on the bike, and grows with what you carry. Recycled ripstop nylon with welded seams.',
  'Leather Crossbody Bag':
    'A small crossbody bag for a phone, keys and a wallet, worn on the hip or across the chest. Vegetable-tanned leather that darkens with use.',
  'Weekender Duffel':
    'Takes a weekend away and fits in an overhead locker, with a shoe pocket at the end. Waxed cotton canvas with vegetable-tanned leather trims.',
  'Packable Day Bag':
    'Packs into its own pocket when empty and carries a day out when full. Recycled ripstop nylon with a water-resistant coating.',
  'Laptop Messenger':
    'A messenger bag with a padded sleeve for a 15-inch laptop and a quick-release strap. Waxed cotton canvas with a leather flap.',
  'Sling Hip Pack':
    'A small sling for the essentials, worn on the hip or across the back. Recycled ripstop nylon with a water-resistant coating.',
  'Waxed Canvas Briefcase':
    'A slim briefcase with room for a laptop and papers, and a strap for the shoulder. Waxed cotton canvas with vegetable-tanned leather handles.',
  'Washed Cotton Cap':
    'A six-panel cap with a curved brim and an adjustable strap that fits almost everyone. Washed cotton twill with a cotton sweatband.',
  'Merino Rib Beanie': 'A warm, stretchy rib beanie that stays put on windy days, without the itch. Soft merino wool, knitted in Scotland.',
  'Fisherman Wool Beanie':
    'A short, snug beanie that sits above the ears, as fishermen wore it on deck. Thick lambswool in a fisherman rib.',
  'Wide-Brim Sun Hat': 'A packable hat for sunny days, with a brim wide enough to shade your neck. Woven paper straw with a cotton band.',
  'Mesh Trucker Cap':
    'A trucker cap with a foam front and a mesh back that keeps your head cool. Cotton twill front, polyester mesh back, snap closure.',
  'Waxed Bucket Hat':
    'A bucket hat that keeps the drizzle off, with a short, soft brim all round. Waxed cotton canvas with a cotton lining.',
  'Five-Panel Camp Cap': 'A flat-brimmed five-panel cap for the campsite and the city. Nylon with a quick-drying cotton sweatband.',
  'Cable-Knit Beanie': 'A cosy cable-knit beanie with a folded cuff for extra warmth over the ears. Soft merino wool, knitted in Scotland.',
  'Corduroy Dad Cap': 'A relaxed, unstructured cap in soft corduroy with a brass buckle strap. Cotton corduroy with a cotton sweatband.',
};

const CARE: Record<Shape, string> = {
  tee: 'Machine wash cold; tumble dry low.',
  hoodie: 'Machine wash cold inside out; dry flat.',
  runner: 'Wipe clean with a damp cloth; air dry away from heat.',
  boot: 'Brush off dirt and condition the leather now and then.',
  bag: 'Spot clean; re-wax the canvas once a year.',
  cap: 'Hand wash cold and reshape while damp.',
};

export function describeProduct(shape: Shape, name: string): string {
  const about = ABOUT[name];
  if (!about) throw new Error(`No description for the demo product ${name}`);
  return `${about} ${CARE[shape]}`;
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
