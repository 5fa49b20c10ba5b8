import { createElement, type ComponentType } from 'react';

/**
 * A screen's code failed to arrive (the server or the network is down): the router's error screen
 * says so in the app, and `load` tries again.
 */
export class ScreenLoadError extends Error {
  constructor(
    readonly cause: unknown,
    readonly load: () => Promise<unknown>,
  ) {
    super('The screen could not be loaded');
    this.name = 'ScreenLoadError';
  }
}

/**
 * A route's screen, loaded on first use (its own chunk). Unlike the router's lazyRouteComponent, a
 * failed load never reloads the tab (which, with the server down, leaves the person on the browser's
 * error page): it throws ScreenLoadError for the app's error screen, and the next render tries again.
 */
export function lazyScreen<Module extends Record<Name, ComponentType>, Name extends string>(importer: () => Promise<Module>, name: Name) {
  let screen: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  let failure: unknown;
  const load = () => {
    loading ??= importer().then(
      (module) => {
        screen = module[name];
      },
      (error: unknown) => {
        loading = undefined;
        failure = error;
      },
    );
    return loading;
  };
  /** Loads the screen now, rejecting when it cannot arrive. */
  const retry = async () => {
    await load();
    if (!screen) throw failure;
  };
  function LazyScreen() {
    if (failure !== undefined) {
      const cause = failure;
      failure = undefined;
      throw new ScreenLoadError(cause, retry);
    }
    if (!screen) throw load();
    return createElement(screen);
  }
  LazyScreen.preload = load;
  return LazyScreen;
}
