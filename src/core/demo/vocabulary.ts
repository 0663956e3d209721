// The closed sets of the demo schema (see SCHEMA.md) and the words the generator builds names from.
// Shares are rough shapes of a mid-sized online retailer, chosen so charts look plausible.

export const REGIONS = ['North America', 'Europe', 'Asia Pacific', 'Latin America'] as const;
export type Region = (typeof REGIONS)[number];
export const REGION_SHARES = [38, 32, 20, 10];

/** Countries of each region, with their relative share of that region's customers. */
export const COUNTRIES: Record<Region, ReadonlyArray<readonly [country: string, share: number]>> = {
  'North America': [['United States', 80], ['Canada', 15], ['Mexico', 5]],
  Europe: [['Germany', 22], ['United Kingdom', 22], ['France', 18], ['Spain', 10], ['Italy', 10], ['Netherlands', 8], ['Sweden', 5], ['Poland', 5]],
  'Asia Pacific': [['Australia', 25], ['Japan', 25], ['India', 18], ['Singapore', 12], ['South Korea', 12], ['New Zealand', 8]],
  'Latin America': [['Brazil', 45], ['Argentina', 20], ['Chile', 15], ['Colombia', 12], ['Peru', 8]],
};

export const SEGMENTS = ['consumer', 'small_business', 'enterprise'] as const;
export type Segment = (typeof SEGMENTS)[number];
export const SEGMENT_SHARES = [78, 17, 5];

export const ORDER_STATUSES = ['completed', 'pending', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CHANNELS = ['web', 'mobile', 'marketplace'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface CategorySpec {
  readonly name: string;
  /** How many of the catalogue's products fall in this category. */
  readonly products: number;
  readonly minPriceCents: number;
  readonly maxPriceCents: number;
  readonly nouns: readonly string[];
}

// 200 products in all.
export const CATEGORIES: readonly CategorySpec[] = [
  { name: 'Electronics', products: 34, minPriceCents: 1_999, maxPriceCents: 149_999, nouns: ['Headphones', 'Speaker', 'Monitor', 'Keyboard', 'Webcam', 'Tablet', 'Charger', 'Smartwatch'] },
  { name: 'Home & Kitchen', products: 32, minPriceCents: 999, maxPriceCents: 39_999, nouns: ['Blender', 'Kettle', 'Cookware Set', 'Knife Block', 'Coffee Maker', 'Toaster', 'Lamp', 'Rug'] },
  { name: 'Clothing', products: 30, minPriceCents: 1_499, maxPriceCents: 24_999, nouns: ['Jacket', 'Sweater', 'Jeans', 'T-Shirt', 'Sneakers', 'Scarf', 'Dress', 'Boots'] },
  { name: 'Sports & Outdoors', products: 26, minPriceCents: 1_299, maxPriceCents: 59_999, nouns: ['Tent', 'Backpack', 'Yoga Mat', 'Bike Helmet', 'Dumbbells', 'Water Bottle', 'Running Shoes'] },
  { name: 'Books', products: 24, minPriceCents: 699, maxPriceCents: 5_999, nouns: ['Cookbook', 'Novel', 'Field Guide', 'Atlas', 'Biography', 'Workbook'] },
  { name: 'Beauty', products: 20, minPriceCents: 599, maxPriceCents: 12_999, nouns: ['Serum', 'Moisturiser', 'Shampoo', 'Perfume', 'Hair Dryer', 'Lip Balm'] },
  { name: 'Toys & Games', products: 18, minPriceCents: 799, maxPriceCents: 19_999, nouns: ['Board Game', 'Puzzle', 'Building Set', 'Plush Bear', 'Card Game', 'Drone'] },
  { name: 'Grocery', products: 16, minPriceCents: 299, maxPriceCents: 4_999, nouns: ['Coffee Beans', 'Green Tea', 'Olive Oil', 'Dark Chocolate', 'Granola', 'Honey'] },
];

export const PRODUCT_ADJECTIVES = [
  'Aurora', 'Summit', 'Nordic', 'Classic', 'Urban', 'Pro', 'Essential', 'Coastal', 'Everyday', 'Premium',
  'Compact', 'Vintage', 'Alpine', 'Studio', 'Eco', 'Lumen', 'Terra', 'Nova',
];

export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Mateo', 'Sofia', 'Lucas', 'Mia', 'Hiro', 'Aiko', 'Arjun', 'Priya',
  'Chloe', 'Leon', 'Hannah', 'Jonas', 'Elena', 'Marco', 'Giulia', 'Camila', 'Diego', 'Valentina', 'Santiago',
  'Isabella', 'Ethan', 'Grace', 'Wei', 'Min-jun', 'Seo-yeon', 'Lars', 'Freya', 'Zofia', 'Jan', 'Amelie', 'Oscar',
  'Chen', 'Ana', 'Luca', 'Nora',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Brown', 'Garcia', 'Martinez', 'Müller', 'Schmidt', 'Dubois', 'Martin', 'Rossi', 'Russo',
  'Tanaka', 'Suzuki', 'Sato', 'Patel', 'Sharma', 'Kim', 'Lee', 'Park', 'Silva', 'Santos', 'Oliveira', 'López',
  'González', 'Nowak', 'Kowalski', 'Andersson', 'Johansson', 'de Vries', 'Jansen', 'Wilson', 'Taylor', 'Chen',
  'Wang', 'Nguyen', 'Fernández', 'Moreau', 'Fischer', 'Walker', "O'Brien",
];
