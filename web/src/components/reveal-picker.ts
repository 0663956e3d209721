// The governed reveals of the workspace (GET /api/reveals), shared by the CML builder and Explore.
import { get } from '../api';
import { useLoad } from './use-load';

export interface Reveal {
  name: string;
  domain: string;
  description: string;
  metrics: string[];
}

export function useReveals() {
  return useLoad(() => get<{ reveals: Reveal[] }>('/api/reveals'));
}

export const splitList = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
