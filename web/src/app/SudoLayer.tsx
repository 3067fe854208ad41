import { SudoDialog } from '../features/account/components/SudoDialog.tsx';
import { useLogout } from '../features/auth/api/logout.ts';

/** The sudo dialog with its way out for an account whose only proof is a fresh sign-in. */
export default function SudoLayer() {
  const logout = useLogout();
  return <SudoDialog onSignInAgain={() => logout.mutate()} />;
}
