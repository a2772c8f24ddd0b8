import { lazy, Suspense, type ComponentProps } from 'react';

// The account menu (menus, popovers, the change-password form) is only for people signed in:
// it loads with the first signed-in page, keeping it out of the sign-in route's JavaScript.
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));

export function LazyUserMenu(props: ComponentProps<typeof UserMenu>) {
  return (
    <Suspense fallback={null}>
      <UserMenu {...props} />
    </Suspense>
  );
}
