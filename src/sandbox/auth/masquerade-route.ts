/**
 * auth/v1 masquerade: a token for another identity, signed by the sandbox's TokenService, so the
 * sandbox accepts it like any demo token. The caller's claims are kept; `sub` = identityId and
 * `aud` = audience always win over claims of the same name.
 */
import type { SandboxRoute } from '../core/types';
import { PATH_PREFIX, permit, type AuthDeps } from './deps';
import { Input, bodyOf } from './input';

export function masqueradeRoute(deps: AuthDeps): SandboxRoute {
  return {
    method: 'POST',
    template: `${PATH_PREFIX}/masquerade`,
    auth: 'bearer',
    handle(req) {
      permit(deps, req, ['masquerade', 'masquerade']);
      const body = new Input(bodyOf(req));
      const identityId = body.string('identityId');
      const audience = body.string('audience', { nonEmpty: true });
      const claims = body.map('claims');
      const token = deps.tokens.sign({ ...claims, sub: identityId, aud: audience });
      return { status: 200, json: { token } };
    },
  };
}
