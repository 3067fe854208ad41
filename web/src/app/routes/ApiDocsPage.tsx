import { ApiDocsScreen } from '../../features/api-docs/components/ApiDocsScreen.tsx';

/** API Docs (spec section 2): the live API description with examples. */
export default function ApiDocsPage() {
  return <ApiDocsScreen />;
}
