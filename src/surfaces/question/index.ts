// Surface A, mounted at /api/v1: question keys (svc_sk_…), 100 requests per key per clock hour.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { questionKeyPlace } from '../route-place.js';
import { questionRoutes } from './question-routes.js';

export const questionSurface: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(questionRoutes, questionKeyPlace(services));
};
