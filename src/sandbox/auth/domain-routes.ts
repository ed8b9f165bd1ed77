/** auth/v1 domains: list, fetch by id or code (the same record either way), create. */
import { HttpError, type SandboxRoute } from '../core/types';
import { PATH_PREFIX, notFound, paged, permit, type AuthDeps } from './deps';
import { Input, bodyOf } from './input';
import { domainView } from './views';

export function domainRoutes(deps: AuthDeps): SandboxRoute[] {
  const { store, ctx } = deps;
  return [
    {
      method: 'GET',
      template: `${PATH_PREFIX}/domains`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['domain', 'read']);
        return { status: 200, json: paged(req, [...store.domains.values()]).map(domainView) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/domains/{idOrCode}`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['domain', 'read']);
        const key = req.params['idOrCode'] ?? '';
        const domain = store.domainByIdOrCode(key);
        if (!domain) throw notFound('domain', key);
        return { status: 200, json: domainView(domain) };
      },
    },
    {
      method: 'POST',
      template: `${PATH_PREFIX}/domains`,
      auth: 'bearer',
      handle(req) {
        const caller = permit(deps, req, ['domain', 'create']);
        const body = new Input(bodyOf(req));
        const name = body.string('name', { nonEmpty: true });
        const code = body.code('code');
        if (store.domainByCode(code)) throw new HttpError(409, `code: a domain with code '${code}' already exists`);
        const now = ctx.clock.now();
        const domain = { id: ctx.uuid(), name, code, createdBy: caller.identityId, createdAt: now, updatedAt: now };
        store.addDomain(domain);
        return { status: 200, json: domainView(domain) };
      },
    },
  ];
}
