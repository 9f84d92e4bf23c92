import { Navigate, useParams } from 'react-router';

/** `/admin/invite/:token`: the same invitation page as `/admin/login?invite=<token>`. */
export default function InvitePage() {
  const { token = '' } = useParams();
  return <Navigate to={`/admin/login?invite=${encodeURIComponent(token)}`} replace />;
}
