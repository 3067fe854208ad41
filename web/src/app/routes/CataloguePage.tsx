import { CatalogueScreen } from '../../features/catalogue/components/CatalogueScreen.tsx';

export default function CataloguePage() {
  return <CatalogueScreen />;
}
