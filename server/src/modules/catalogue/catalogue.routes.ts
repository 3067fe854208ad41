import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { CatalogueService } from './catalogue.service.ts';

export function mountCatalogueRoutes(router: Router<AppState>, limits: RateLimits, catalogue: CatalogueService): void {
  mountEndpoint(router, endpoints.catalogueFetch, limits, ({ query }) => catalogue.fetch(query.page, query.max));
  mountEndpoint(router, endpoints.catalogueSearch, limits, ({ query }) =>
    catalogue.search(query.q, query.page, query.max),
  );
  mountEndpoint(router, endpoints.catalogueTrending, limits, () => catalogue.trending());
  mountEndpoint(router, endpoints.catalogueScript, limits, ({ params }) => catalogue.source(params.id));
}
