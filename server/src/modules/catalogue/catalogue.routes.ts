import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { CatalogueService } from './catalogue.service.ts';

export function mountCatalogueRoutes(router: Router<AppState>, limits: RateLimits, catalogue: CatalogueService): void {
  // Each call is made for the user asking, so one user's calls cannot fill the catalogue queue.
  mountEndpoint(router, endpoints.catalogueFetch, limits, ({ query, principal }) =>
    catalogue.fetch(query.page, query.max, principal.userId),
  );
  mountEndpoint(router, endpoints.catalogueSearch, limits, ({ query, principal }) =>
    catalogue.search(query.q, query.page, query.max, principal.userId),
  );
  mountEndpoint(router, endpoints.catalogueTrending, limits, ({ principal }) => catalogue.trending(principal.userId));
  mountEndpoint(router, endpoints.catalogueScript, limits, ({ params, principal }) =>
    catalogue.source(params.id, principal.userId),
  );
}
