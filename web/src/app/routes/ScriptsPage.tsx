import { MyScripts } from '../../features/scripts/components/MyScripts.tsx';

export default function ScriptsPage() {
  return <MyScripts />;
}
