// The chart types a scene may be saved with: one list for the server's schema and the console's
// chart picker, so the two cannot drift. Free of imports, so the console can bundle it.
export const VISUALIZATION_TYPES = ['table', 'bar', 'stacked_bar', 'line', 'area', 'scatter', 'pie', 'number'] as const;
export type VisualizationType = (typeof VISUALIZATION_TYPES)[number];
