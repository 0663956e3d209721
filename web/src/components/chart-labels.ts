// What each chart type is called on screen: one list for Explore's chart picker and the scene editor.
import type { ChartType } from './chart-plan';

export const CHART_LABELS: Readonly<Record<ChartType, string>> = { table: 'Table only', bar: 'Bars', stacked_bar: 'Stacked bars', line: 'Line', area: 'Area', scatter: 'Points', pie: 'Pie', number: 'Number' };
