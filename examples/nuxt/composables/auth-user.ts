/** The signed-in user as the server saw it when it rendered the page (null when signed out). */
export const useAuthUser = () => useState<{ email: string; name: string | null } | null>('auth-user', () => null);
