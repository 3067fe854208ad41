import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenApiDocument } from '@moonrelay/contract/api-docs';
import { apiRequest } from '../../../lib/api-client.ts';

/** The live OpenAPI document the docs page is built from (it changes only with a new server release). */
export const openApiQuery = () =>
  queryOptions({
    queryKey: ['/api/openapi.json'],
    queryFn: () => apiRequest<OpenApiDocument>('GET', '/api/openapi.json'),
  });

export const useOpenApiDocument = () => useQuery(openApiQuery());
